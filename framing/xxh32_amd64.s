#include "textflag.h"

DATA xxhPrime1<>+0x00(SB)/4, $2654435761
DATA xxhPrime1<>+0x04(SB)/4, $2654435761
DATA xxhPrime1<>+0x08(SB)/4, $2654435761
DATA xxhPrime1<>+0x0c(SB)/4, $2654435761
GLOBL xxhPrime1<>(SB), RODATA|NOPTR, $16

DATA xxhPrime2<>+0x00(SB)/4, $2246822519
DATA xxhPrime2<>+0x04(SB)/4, $2246822519
DATA xxhPrime2<>+0x08(SB)/4, $2246822519
DATA xxhPrime2<>+0x0c(SB)/4, $2246822519
GLOBL xxhPrime2<>(SB), RODATA|NOPTR, $16

// func xxh32Stripes(v *[4]uint32, p []byte)
//
// XXH32's four accumulators, one per 32-bit lane of one register, over
// the len(p)/16 stripes of p: v[i] = rotl(v[i] + word_i*prime2, 13) *
// prime1 for each stripe. The chain through a lane is an add, a rotate and
// one multiply a stripe; the multiply by prime2 is off it.
TEXT ·xxh32Stripes(SB), NOSPLIT, $0-32
	MOVQ v+0(FP), AX
	MOVQ p_base+8(FP), SI
	MOVQ p_len+16(FP), CX
	SHRQ $4, CX
	JZ done
	VMOVDQU (AX), X0
	VMOVDQU xxhPrime2<>(SB), X1
	VMOVDQU xxhPrime1<>(SB), X2

loop:
	VMOVDQU (SI), X3
	VPMULLD X1, X3, X3
	VPADDD X3, X0, X0
	VPSLLD $13, X0, X4
	VPSRLD $19, X0, X0
	VPOR X4, X0, X0
	VPMULLD X2, X0, X0
	ADDQ $16, SI
	DECQ CX
	JNZ loop

	VMOVDQU X0, (AX)

done:
	RET

// func xxh32Stripes2(va, vb *[4]uint32, a, b []byte)
//
// xxh32Stripes over the stripes of a (into va) and of b (into vb) at
// once, a's lanes in the low half of one 256-bit register and b's in the
// high half; a and b have one length.
TEXT ·xxh32Stripes2(SB), NOSPLIT, $0-64
	MOVQ va+0(FP), AX
	MOVQ vb+8(FP), BX
	MOVQ a_base+16(FP), SI
	MOVQ a_len+24(FP), CX
	MOVQ b_base+40(FP), DI
	SHRQ $4, CX
	JZ done2
	VMOVDQU (AX), X0
	VINSERTI128 $1, (BX), Y0, Y0
	VBROADCASTI128 xxhPrime2<>(SB), Y1
	VBROADCASTI128 xxhPrime1<>(SB), Y2

loop2:
	VMOVDQU (SI), X3
	VINSERTI128 $1, (DI), Y3, Y3
	VPMULLD Y1, Y3, Y3
	VPADDD Y3, Y0, Y0
	VPSLLD $13, Y0, Y4
	VPSRLD $19, Y0, Y0
	VPOR Y4, Y0, Y0
	VPMULLD Y2, Y0, Y0
	ADDQ $16, SI
	ADDQ $16, DI
	DECQ CX
	JNZ loop2

	VMOVDQU X0, (AX)
	VEXTRACTI128 $1, Y0, (BX)
	VZEROUPPER

done2:
	RET

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

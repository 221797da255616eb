#include "textflag.h"

// Weights of the bytes of a 32-byte block in the second Adler-32 sum:
// byte t counts 32-t times.
DATA adlerWeights<>+0x00(SB)/8, $0x191a1b1c1d1e1f20
DATA adlerWeights<>+0x08(SB)/8, $0x1112131415161718
DATA adlerWeights<>+0x10(SB)/8, $0x090a0b0c0d0e0f10
DATA adlerWeights<>+0x18(SB)/8, $0x0102030405060708
GLOBL adlerWeights<>(SB), RODATA|NOPTR, $32

DATA adlerOnes<>+0x00(SB)/8, $0x0001000100010001
DATA adlerOnes<>+0x08(SB)/8, $0x0001000100010001
DATA adlerOnes<>+0x10(SB)/8, $0x0001000100010001
DATA adlerOnes<>+0x18(SB)/8, $0x0001000100010001
GLOBL adlerOnes<>(SB), RODATA|NOPTR, $32

// func adler32Blocks(p []byte) (total, prefix, weighted uint64)
//
// Over the len(p)/32 blocks of p: total is the sum of every byte, prefix
// the sum over the blocks of the bytes of the blocks before each, and
// weighted the sum of every byte times 32 minus its place in its block.
// Lanes: total and prefix in 64-bit lanes (VPSADBW sums 8 bytes into
// each), weighted in 32-bit lanes (at most 4*255*32 per block and lane:
// over 2^17 blocks before one could overflow; callers pass 2^11 at most).
TEXT ·adler32Blocks(SB), NOSPLIT, $0-48
	MOVQ p_base+0(FP), SI
	MOVQ p_len+8(FP), CX
	SHRQ $5, CX
	VPXOR Y0, Y0, Y0
	VPXOR Y1, Y1, Y1
	VPXOR Y2, Y2, Y2
	VPXOR Y3, Y3, Y3
	VMOVDQU adlerWeights<>(SB), Y4
	VMOVDQU adlerOnes<>(SB), Y5
	TESTQ CX, CX
	JZ sums

loop:
	VMOVDQU (SI), Y6
	VPADDQ Y1, Y2, Y2
	VPSADBW Y0, Y6, Y7
	VPADDQ Y7, Y1, Y1
	VPMADDUBSW Y4, Y6, Y8
	VPMADDWD Y5, Y8, Y8
	VPADDD Y8, Y3, Y3
	ADDQ $32, SI
	DECQ CX
	JNZ loop

sums:
	VEXTRACTI128 $1, Y1, X9
	VPADDQ X9, X1, X1
	VPSHUFD $0x4e, X1, X9
	VPADDQ X9, X1, X1
	VMOVQ X1, AX
	MOVQ AX, total+24(FP)

	VEXTRACTI128 $1, Y2, X9
	VPADDQ X9, X2, X2
	VPSHUFD $0x4e, X2, X9
	VPADDQ X9, X2, X2
	VMOVQ X2, AX
	MOVQ AX, prefix+32(FP)

	VEXTRACTI128 $1, Y3, X9
	VPADDD X9, X3, X3
	VPSHUFD $0x4e, X3, X9
	VPADDD X9, X3, X3
	VPSHUFD $0xb1, X3, X9
	VPADDD X9, X3, X3
	VMOVD X3, AX
	MOVQ AX, weighted+40(FP)

	VZEROUPPER
	RET

/* exact_loops -- loops whose instruction counts are known by construction,
 * for checking exact (instruction-counting) profiles. Assembled in
 * noreorder mode: every instruction below is one executed instruction, no
 * assembler-inserted nops, and `li` of a value >= 0x10000 is exactly two
 * instructions (lui + ori).
 *
 * Functions and their dynamic instruction counts per call:
 *   loop_1m:  li (2) + 1,000,000 trips x 3 (addiu, bnez, nop) + jr, nop (2)
 *             = 3,000,004
 *   loop_2m:  li (2) + 2,000,000 x 3 + 2 = 6,000,004
 *   loop_mul: li (2) + move (1) + 500,000 trips x 6 (mult, mflo, addu,
 *             addiu, bnez, nop) + 2 = 3,000,005
 *   nested:   addiu (1) + 1,000 outer trips x (addiu 1 + 1,000 inner
 *             trips x 3 + addiu, bnez, nop 3 = 3,004) + 2 = 3,004,003
 *   main:     calls each once, then puts and return (libc's counts are not
 *             fixed by construction).
 * Total of the four loop functions: 15,004,016 instructions.
 * Expected output: "exact_loops: done\n"; exit status 0.
 */
	.text
	.set noreorder

	.globl loop_1m
	.ent loop_1m
	.type loop_1m, @function
loop_1m:
	li $8, 1000000           /* lui + ori */
1:	addiu $8, $8, -1
	bnez $8, 1b
	nop
	jr $31
	nop
	.end loop_1m

	.globl loop_2m
	.ent loop_2m
	.type loop_2m, @function
loop_2m:
	li $8, 2000000           /* lui + ori */
1:	addiu $8, $8, -1
	bnez $8, 1b
	nop
	jr $31
	nop
	.end loop_2m

	.globl loop_mul
	.ent loop_mul
	.type loop_mul, @function
loop_mul:
	li $8, 500000            /* lui + ori */
	move $2, $0
1:	mult $8, $8
	mflo $9
	addu $2, $2, $9
	addiu $8, $8, -1
	bnez $8, 1b
	nop
	jr $31
	nop
	.end loop_mul

	.globl nested
	.ent nested
	.type nested, @function
nested:
	addiu $10, $0, 1000      /* outer count: one instruction */
2:	addiu $8, $0, 1000       /* inner count: one instruction */
1:	addiu $8, $8, -1
	bnez $8, 1b
	nop
	addiu $10, $10, -1
	bnez $10, 2b
	nop
	jr $31
	nop
	.end nested

	.section .rodata
done_msg:
	.asciz "exact_loops: done"

	.text
	.globl main
	.ent main
	.type main, @function
main:
	addiu $29, $29, -24
	sw $31, 20($29)
	jal loop_1m
	nop
	jal loop_2m
	nop
	jal loop_mul
	nop
	jal nested
	nop
	lui $4, %hi(done_msg)
	jal puts
	addiu $4, $4, %lo(done_msg)
	lw $31, 20($29)
	move $2, $0
	jr $31
	addiu $29, $29, 24
	.end main

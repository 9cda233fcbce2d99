/* ld_start.S -- entry of ld.so, irix-emu's test interpreter (ld.c).
 *
 * The kernel enters here with the program's start-up stack (sp -> argc,
 * argv, envp, then the auxiliary vector). ld_main(sp) maps and binds the
 * program's libraries and returns the program's entry point; we jump there
 * with the stack as the kernel built it, $t9 = the entry (position-
 * independent code computes $gp from it), v0 = 0 (no atexit function) and
 * ra = 0, as a kernel starts a program.
 */
	.text
	.set noreorder
	.globl _dl_start
	.ent _dl_start
	.type _dl_start, @function
_dl_start:
	lui $28, %hi(_gp)
	addiu $28, $28, %lo(_gp)
	move $16, $29            /* s0 = the start-up stack */
	move $4, $29             /* a0 = sp */
	li $8, -16
	and $29, $29, $8
	addiu $29, $29, -32
	jal ld_main
	nop
	move $29, $16
	move $25, $2
	move $2, $0
	jr $25
	move $31, $0
	.end _dl_start

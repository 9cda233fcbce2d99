/* setjmp.S -- setjmp/longjmp, and sigsetjmp/siglongjmp's register half
 * (guest libc, irix-emu). Layout of jmp_buf in include/setjmp.h:
 * words 0-8 s0-s8, 9 sp, 10 ra, 11 gp, 12-23 f20..f30 as six doubles
 * (FR=0: the even/odd pairs), 24 savemask, 25-28 the saved sigset. */
	.text
	.set reorder

#define SAVE_REGS \
	sw $16, 0($4); sw $17, 4($4); sw $18, 8($4); sw $19, 12($4); \
	sw $20, 16($4); sw $21, 20($4); sw $22, 24($4); sw $23, 28($4); \
	sw $30, 32($4); sw $29, 36($4); sw $31, 40($4); sw $28, 44($4); \
	sdc1 $f20, 48($4); sdc1 $f22, 56($4); sdc1 $f24, 64($4); \
	sdc1 $f26, 72($4); sdc1 $f28, 80($4); sdc1 $f30, 88($4)

	.globl setjmp
	.ent setjmp
	.type setjmp, @function
setjmp:
	SAVE_REGS
	sw $0, 96($4)
	move $2, $0
	jr $31
	.end setjmp

	.globl longjmp
	.ent longjmp
	.type longjmp, @function
longjmp:
	lw $16, 0($4); lw $17, 4($4); lw $18, 8($4); lw $19, 12($4)
	lw $20, 16($4); lw $21, 20($4); lw $22, 24($4); lw $23, 28($4)
	lw $30, 32($4); lw $29, 36($4); lw $31, 40($4); lw $28, 44($4)
	ldc1 $f20, 48($4); ldc1 $f22, 56($4); ldc1 $f24, 64($4)
	ldc1 $f26, 72($4); ldc1 $f28, 80($4); ldc1 $f30, 88($4)
	move $2, $5
	bnez $2, 1f
	li $2, 1                 /* longjmp(env, 0) returns 1 */
1:	jr $31
	.end longjmp

#if defined(GUEST_IRIX)
/* sigsetjmp(env, savemask): save registers here, then (savemask != 0) tail-
 * call __sigsetjmp_save(env, savemask), which stores the current mask and
 * returns 0 straight to our caller (ra is untouched). */
	.globl sigsetjmp
	.ent sigsetjmp
	.type sigsetjmp, @function
sigsetjmp:
	SAVE_REGS
	sw $5, 96($4)
	beqz $5, 1f
	j __sigsetjmp_save
1:	move $2, $0
	jr $31
	.end sigsetjmp
#endif

/* crt0.S -- process entry (both personalities).
 *
 * Entry state (docs/abi.md "Start-up", SVR4 MIPS ABI; Linux o32
 * is the same): sp -> argc, argv[0..argc-1], NULL, envp[...], NULL;
 * v0 = 0, ra = 0. We set $gp to _gp (the linker's value; -G0 code does not
 * use it, but the ABI says it is set), store environ, call
 * main(argc, argv, envp) with a 16-byte o32 argument area below a
 * 16-byte-aligned sp, then exit(main's return value).
 */
	.text
	.set noreorder
	.globl __start
	.ent __start
	.type __start, @function
__start:
	lui $28, %hi(_gp)
	addiu $28, $28, %lo(_gp)
	lw $4, 0($29)            /* a0 = argc */
	addiu $5, $29, 4         /* a1 = argv */
	sll $8, $4, 2
	addu $6, $5, $8
	addiu $6, $6, 4          /* a2 = envp = &argv[argc + 1] */
	lui $9, %hi(environ)
	sw $6, %lo(environ)($9)
	li $8, -16
	and $29, $29, $8
	addiu $29, $29, -32      /* argument save area, keeps 16-byte alignment */
	jal main
	nop
	jal exit
	move $4, $2              /* delay slot: a0 = main's return value */
	break 0                  /* not reached */
	.end __start

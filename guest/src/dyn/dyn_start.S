/* dyn_start.S -- entry of the dynamic test program (position-independent,
 * as IRIX's own programs are). The interpreter jumps here with the start-up
 * stack the kernel built (sp -> argc) and $t9 = this address, from which
 * .cpload computes $gp. main never returns: it ends with greet_exit.
 */
	.abicalls
	.text
	.globl __start
	.ent __start
	.type __start, @function
__start:
	.set noreorder
	.cpload $25
	.set reorder
	lw $4, 0($29)            /* a0 = argc */
	addiu $5, $29, 4         /* a1 = argv */
	addiu $29, $29, -32
	la $25, main
	jalr $25
1:	b 1b
	.end __start

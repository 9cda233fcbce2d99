/* cg_turns.h -- shared by cg_fork and cg_sproc (irix-emu): two processes
 * take turns inside the same functions. leaf spins for longer than one
 * 1,000,000-cycle time slice, so the other process runs before it
 * returns; parent_work is the parent's side (leaf twice). */
#ifndef CG_TURNS_H
#define CG_TURNS_H

#include "callgraph.h"

#define LEAF_SPIN 300000u

NOTAIL static unsigned leaf(void)
{
	return spin(LEAF_SPIN);
}

NOTAIL static unsigned parent_work(void)
{
	return leaf() + leaf();
}

#endif

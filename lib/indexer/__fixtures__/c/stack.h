/* Growable stack of ints. */
#ifndef STACK_H
#define STACK_H

#include <stddef.h>

typedef struct {
  int *items;
  size_t size;
} stack;

/** Pushes one value; returns 0 when memory runs out. */
int stack_push(stack *s, int value);
int stack_pop(stack *s);

#endif

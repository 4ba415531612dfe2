#include <stdio.h>
#include <stdlib.h>
#include "stack.h"

static int pushes = 0;

static void die(const char *why) {
  fprintf(stderr, "stack: %s\n", why);
  exit(1);
}

/* Pushes one value. */
int stack_push(stack *s, int value) {
  int *grown = realloc(s->items, (s->size + 1) * sizeof(int));
  if (!grown) die("out of memory");
  s->items = grown;
  s->items[s->size++] = value;
  pushes++;
  return 1;
}

int stack_pop(stack *s) {
  if (s->size == 0) die("pop from an empty stack");
  return s->items[--s->size];
}

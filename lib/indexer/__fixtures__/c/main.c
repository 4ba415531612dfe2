#include "stack.h"

int main(int argc, char **argv) {
  stack s = {0};
  for (int i = 1; i < argc; i++) stack_push(&s, atoi(argv[i]));
  return stack_pop(&s);
}

#include "../core/store.h"

/* Saves every record of a batch. */
int run_batch(store *s, const char **names, int count) {
  for (int i = 0; i < count; i++) store_save(s, names[i]);
  return count;
}

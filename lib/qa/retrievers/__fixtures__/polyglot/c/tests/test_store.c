#include <assert.h>
#include "../src/core/store.h"
#include "../src/core/util.h"

int handle_create(store *s, const char *name);

int main(void) {
  store s = {0};
  char key[32];
  assert(store_save(&s, " A ") == 0);
  assert(handle_create(&s, "b") == 1);
  format_key("C", key, sizeof key);
  return 0;
}

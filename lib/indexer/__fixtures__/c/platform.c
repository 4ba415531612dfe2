/* Thread-local storage: a Windows variant beside the portable code. */
#include <stdlib.h>

#ifdef _WIN32
static void tls_detach(void *unused)
{
    free(unused);
}
#endif

int tls_main(int argc, char *argv[])
{
#ifdef _WIN32
    if (argc > 1) {
#else
    if (argc > 2) {
#endif
        return tls_run(argv[1]);
    }
    return 0;
}

#include <sqlite3.h>

/// sqlite3_config is variadic, which Swift cannot call: turns off SQLite's memory statistics,
/// which take a global mutex on every allocation. Must run before SQLite initializes; returns
/// SQLITE_MISUSE (harmlessly) if it already has.
static inline int lifesignal_sqlite_disable_memstatus(void) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}

// A SQLite VFS that passes everything to the default one, except that on WAL files a small write (a frame's
// 24-byte header, the WAL's 32-byte header) is held and goes out in one write with the page that follows it.
//
// SQLite writes each WAL frame as two writes, the header then the page: two pwrite system calls per page, about one
// per durable push. Holding the header until the page comes halves them. A held header never outlives the call
// that follows it on the same file: a write that does not continue it, and every other call (read, sync, size,
// truncate, close, file control, lock), first writes it out. So when a COMMIT returns, every byte of it has been
// passed to the operating system exactly as before, and readers, which read only frames a commit has published,
// never see a held frame.
#include "CNative.h"
#include <stdatomic.h>
#include <string.h>

/// Writes shorter than this are held (WAL frame and file headers); page writes are at least 512 bytes.
#define CNATIVE_HELD_WRITE_LIMIT 512

typedef struct {
    sqlite3_file base;  // pMethods: &walMethods
    sqlite3_file *real;  // the default VFS's file, in the same allocation after this struct
    unsigned char *held;  // bytes not yet written, for the file offset `heldOffset`
    int heldCount;
    int heldCapacity;
    sqlite3_int64 heldOffset;
} HeldWriteFile;

static sqlite3_vfs *realVfs;
static sqlite3_vfs coalescingVfs;
static atomic_long mergedWrites;

static int reserveHeld(HeldWriteFile *file, int count) {
    if (count <= file->heldCapacity) return 1;
    int capacity = count < 16384 ? 16384 : count + 4096;
    unsigned char *grown = sqlite3_realloc(file->held, capacity);
    if (grown == NULL) return 0;
    file->held = grown;
    file->heldCapacity = capacity;
    return 1;
}

static int writeHeld(HeldWriteFile *file) {
    if (file->heldCount == 0) return SQLITE_OK;
    int count = file->heldCount;
    file->heldCount = 0;
    return file->real->pMethods->xWrite(file->real, file->held, count, file->heldOffset);
}

static int heldClose(sqlite3_file *base) {
    HeldWriteFile *file = (HeldWriteFile *)base;
    int rc = writeHeld(file);
    int closed = file->real->pMethods->xClose(file->real);
    sqlite3_free(file->held);
    file->held = NULL;
    file->heldCapacity = 0;
    return rc != SQLITE_OK ? rc : closed;
}

static int heldRead(sqlite3_file *base, void *data, int amount, sqlite3_int64 offset) {
    HeldWriteFile *file = (HeldWriteFile *)base;
    int rc = writeHeld(file);
    return rc != SQLITE_OK ? rc : file->real->pMethods->xRead(file->real, data, amount, offset);
}

static int heldWrite(sqlite3_file *base, const void *data, int amount, sqlite3_int64 offset) {
    HeldWriteFile *file = (HeldWriteFile *)base;
    if (file->heldCount > 0 && offset != file->heldOffset + file->heldCount) {
        int rc = writeHeld(file);  // not a continuation: the held bytes go first, alone
        if (rc != SQLITE_OK) return rc;
    }
    if (amount < CNATIVE_HELD_WRITE_LIMIT && file->heldCount + amount <= 4 * CNATIVE_HELD_WRITE_LIMIT) {
        if (reserveHeld(file, file->heldCount + amount)) {
            if (file->heldCount == 0) file->heldOffset = offset;
            memcpy(file->held + file->heldCount, data, (size_t)amount);
            file->heldCount += amount;
            return SQLITE_OK;
        }
    }
    if (file->heldCount == 0) return file->real->pMethods->xWrite(file->real, data, amount, offset);
    if (!reserveHeld(file, file->heldCount + amount)) {
        int rc = writeHeld(file);
        return rc != SQLITE_OK ? rc : file->real->pMethods->xWrite(file->real, data, amount, offset);
    }
    memcpy(file->held + file->heldCount, data, (size_t)amount);
    file->heldCount += amount;
    atomic_fetch_add_explicit(&mergedWrites, 1, memory_order_relaxed);
    return writeHeld(file);
}

static int heldTruncate(sqlite3_file *base, sqlite3_int64 size) {
    HeldWriteFile *file = (HeldWriteFile *)base;
    int rc = writeHeld(file);
    return rc != SQLITE_OK ? rc : file->real->pMethods->xTruncate(file->real, size);
}

static int heldSync(sqlite3_file *base, int flags) {
    HeldWriteFile *file = (HeldWriteFile *)base;
    int rc = writeHeld(file);
    return rc != SQLITE_OK ? rc : file->real->pMethods->xSync(file->real, flags);
}

static int heldFileSize(sqlite3_file *base, sqlite3_int64 *size) {
    HeldWriteFile *file = (HeldWriteFile *)base;
    int rc = writeHeld(file);
    return rc != SQLITE_OK ? rc : file->real->pMethods->xFileSize(file->real, size);
}

static int heldLock(sqlite3_file *base, int level) {
    HeldWriteFile *file = (HeldWriteFile *)base;
    int rc = writeHeld(file);
    return rc != SQLITE_OK ? rc : file->real->pMethods->xLock(file->real, level);
}

static int heldUnlock(sqlite3_file *base, int level) {
    HeldWriteFile *file = (HeldWriteFile *)base;
    int rc = writeHeld(file);
    return rc != SQLITE_OK ? rc : file->real->pMethods->xUnlock(file->real, level);
}

static int heldCheckReservedLock(sqlite3_file *base, int *reserved) {
    HeldWriteFile *file = (HeldWriteFile *)base;
    return file->real->pMethods->xCheckReservedLock(file->real, reserved);
}

static int heldFileControl(sqlite3_file *base, int op, void *argument) {
    HeldWriteFile *file = (HeldWriteFile *)base;
    int rc = writeHeld(file);
    return rc != SQLITE_OK ? rc : file->real->pMethods->xFileControl(file->real, op, argument);
}

static int heldSectorSize(sqlite3_file *base) {
    HeldWriteFile *file = (HeldWriteFile *)base;
    return file->real->pMethods->xSectorSize(file->real);
}

static int heldDeviceCharacteristics(sqlite3_file *base) {
    HeldWriteFile *file = (HeldWriteFile *)base;
    return file->real->pMethods->xDeviceCharacteristics(file->real);
}

static int heldShmMap(sqlite3_file *base, int region, int size, int extend, void volatile **memory) {
    HeldWriteFile *file = (HeldWriteFile *)base;
    return file->real->pMethods->xShmMap(file->real, region, size, extend, memory);
}

static int heldShmLock(sqlite3_file *base, int offset, int count, int flags) {
    HeldWriteFile *file = (HeldWriteFile *)base;
    int rc = writeHeld(file);
    return rc != SQLITE_OK ? rc : file->real->pMethods->xShmLock(file->real, offset, count, flags);
}

static void heldShmBarrier(sqlite3_file *base) {
    HeldWriteFile *file = (HeldWriteFile *)base;
    file->real->pMethods->xShmBarrier(file->real);
}

static int heldShmUnmap(sqlite3_file *base, int deleteFlag) {
    HeldWriteFile *file = (HeldWriteFile *)base;
    return file->real->pMethods->xShmUnmap(file->real, deleteFlag);
}

static const sqlite3_io_methods heldWriteMethods = {
    2,  // the shm methods, no xFetch (SQLite never maps a WAL file)
    heldClose, heldRead, heldWrite, heldTruncate, heldSync, heldFileSize, heldLock, heldUnlock,
    heldCheckReservedLock, heldFileControl, heldSectorSize, heldDeviceCharacteristics,
    heldShmMap, heldShmLock, heldShmBarrier, heldShmUnmap, NULL, NULL,
};

static int coalescingOpen(sqlite3_vfs *vfs, const char *name, sqlite3_file *base, int flags, int *outFlags) {
    (void)vfs;
    if (!(flags & SQLITE_OPEN_WAL)) return realVfs->xOpen(realVfs, name, base, flags, outFlags);
    HeldWriteFile *file = (HeldWriteFile *)base;
    memset(file, 0, sizeof(*file));
    file->real = (sqlite3_file *)(file + 1);
    memset(file->real, 0, (size_t)realVfs->szOsFile);
    int rc = realVfs->xOpen(realVfs, name, file->real, flags, outFlags);
    if (rc != SQLITE_OK) {
        if (file->real->pMethods != NULL) file->real->pMethods->xClose(file->real);
        file->base.pMethods = NULL;
        return rc;
    }
    file->base.pMethods = &heldWriteMethods;
    return SQLITE_OK;
}

static int coalescingDelete(sqlite3_vfs *vfs, const char *name, int syncDir) {
    (void)vfs;
    return realVfs->xDelete(realVfs, name, syncDir);
}
static int coalescingAccess(sqlite3_vfs *vfs, const char *name, int flags, int *result) {
    (void)vfs;
    return realVfs->xAccess(realVfs, name, flags, result);
}
static int coalescingFullPathname(sqlite3_vfs *vfs, const char *name, int count, char *out) {
    (void)vfs;
    return realVfs->xFullPathname(realVfs, name, count, out);
}
static void *coalescingDlOpen(sqlite3_vfs *vfs, const char *name) {
    (void)vfs;
    return realVfs->xDlOpen(realVfs, name);
}
static void coalescingDlError(sqlite3_vfs *vfs, int count, char *message) {
    (void)vfs;
    realVfs->xDlError(realVfs, count, message);
}
static void (*coalescingDlSym(sqlite3_vfs *vfs, void *handle, const char *symbol))(void) {
    (void)vfs;
    return realVfs->xDlSym(realVfs, handle, symbol);
}
static void coalescingDlClose(sqlite3_vfs *vfs, void *handle) {
    (void)vfs;
    realVfs->xDlClose(realVfs, handle);
}
static int coalescingRandomness(sqlite3_vfs *vfs, int count, char *out) {
    (void)vfs;
    return realVfs->xRandomness(realVfs, count, out);
}
static int coalescingSleep(sqlite3_vfs *vfs, int microseconds) {
    (void)vfs;
    return realVfs->xSleep(realVfs, microseconds);
}
static int coalescingCurrentTime(sqlite3_vfs *vfs, double *now) {
    (void)vfs;
    return realVfs->xCurrentTime(realVfs, now);
}
static int coalescingGetLastError(sqlite3_vfs *vfs, int count, char *message) {
    (void)vfs;
    return realVfs->xGetLastError ? realVfs->xGetLastError(realVfs, count, message) : 0;
}
static int coalescingCurrentTimeInt64(sqlite3_vfs *vfs, sqlite3_int64 *now) {
    (void)vfs;
    return realVfs->xCurrentTimeInt64(realVfs, now);
}

static void registerOnce(void) {
    // SQLite's memory statistics take a global mutex around every sqlite3_malloc and sqlite3_free; nothing here
    // reads them. Only possible before SQLite initialises (else SQLITE_MISUSE, and the statistics stay on).
    sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
    realVfs = sqlite3_vfs_find(NULL);
    if (realVfs == NULL || realVfs->iVersion < 2) {
        coalescingVfs.zName = NULL;
        return;
    }
    coalescingVfs.iVersion = 2;
    coalescingVfs.szOsFile = (int)sizeof(HeldWriteFile) + realVfs->szOsFile;
    coalescingVfs.mxPathname = realVfs->mxPathname;
    coalescingVfs.zName = "apns-mock-held-wal-writes";
    coalescingVfs.xOpen = coalescingOpen;
    coalescingVfs.xDelete = coalescingDelete;
    coalescingVfs.xAccess = coalescingAccess;
    coalescingVfs.xFullPathname = coalescingFullPathname;
    coalescingVfs.xDlOpen = coalescingDlOpen;
    coalescingVfs.xDlError = coalescingDlError;
    coalescingVfs.xDlSym = coalescingDlSym;
    coalescingVfs.xDlClose = coalescingDlClose;
    coalescingVfs.xRandomness = coalescingRandomness;
    coalescingVfs.xSleep = coalescingSleep;
    coalescingVfs.xCurrentTime = coalescingCurrentTime;
    coalescingVfs.xGetLastError = coalescingGetLastError;
    coalescingVfs.xCurrentTimeInt64 = coalescingCurrentTimeInt64;
    if (sqlite3_vfs_register(&coalescingVfs, 0) != SQLITE_OK) coalescingVfs.zName = NULL;
}

const char *cnative_sqlite_held_write_vfs(void) {
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, registerOnce);
    return coalescingVfs.zName;
}

long cnative_sqlite_merged_wal_writes(void) { return atomic_load_explicit(&mergedWrites, memory_order_relaxed); }

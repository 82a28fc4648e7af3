/* A fake libcuda.so.1 for tests without a GPU: the driver API functions Strata calls,
 * on host memory (device pointers are malloc'd addresses), every call recorded in a
 * text log (fake_cuda_log) so a test can check the launch sequence: kernel names,
 * grid and block sizes, the argument words (counted from the PTX's .entry parameters),
 * allocations and their reuse by the stream-ordered pool, graph capture and replay.
 * Kernels do not run. Error codes are injected with environment variables:
 *   FAKE_CUDA_INIT, FAKE_CUDA_LAUNCH, FAKE_CUDA_SYNC, FAKE_CUDA_ALLOC_LIMIT (bytes)
 * Built by the tests with `cc -shared -fPIC`, loaded as libcuda.so.1 through
 * LD_LIBRARY_PATH (a subprocess) or $STRATA_LIBCUDA (ctypes). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int CUresult;
static char *log_buf;
static size_t log_len, log_cap;
static long fresh_allocs, pooled_allocs, live_bytes;

static void logf_(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
#include <stdarg.h>
static void logf_(const char *fmt, ...) {
  char line[4096];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(line, sizeof line, fmt, ap);
  va_end(ap);
  if (n < 0) return;
  if ((size_t)n >= sizeof line) n = sizeof line - 1;
  if (log_len + n + 2 > log_cap) {
    log_cap = (log_cap + n + 2) * 2;
    log_buf = realloc(log_buf, log_cap);
  }
  memcpy(log_buf + log_len, line, n);
  log_len += n;
  log_buf[log_len++] = '\n';
  log_buf[log_len] = 0;
}
const char *fake_cuda_log(void) { return log_buf ? log_buf : ""; }
void fake_cuda_clear(void) { log_len = 0; if (log_buf) log_buf[0] = 0; }
long fake_cuda_fresh_allocs(void) { return fresh_allocs; }
long fake_cuda_live_bytes(void) { return live_bytes; }
static int env_code(const char *name) { const char *v = getenv(name); return v ? atoi(v) : 0; }

/* kernels: name and parameter count, from the PTX's ".entry name(.param ..., ...)" */
#define MAXK 4096
static struct { char name[256]; int nparams; int module; } kernels[MAXK];
static int nmodules;
static int nkernels;
static void parse_ptx(const char *ptx) {
  const char *p = ptx;
  while ((p = strstr(p, ".entry ")) != NULL) {
    p += 7;
    while (*p == ' ') p++;
    int i = 0;
    if (nkernels >= MAXK) return;
    while (*p && *p != '(' && *p != ' ' && *p != '\n' && i < 255) kernels[nkernels].name[i++] = *p++;
    kernels[nkernels].name[i] = 0;
    const char *end = strchr(p, ')');
    int n = 0;
    for (const char *q = p; end && q < end && (q = strstr(q, ".param")) && q < end; q += 6) n++;
    kernels[nkernels].nparams = n;
    kernels[nkernels].module = nmodules;
    nkernels++;
    p = end ? end : p;
  }
}

CUresult cuInit(unsigned flags) { (void)flags; logf_("cuInit"); return env_code("FAKE_CUDA_INIT"); }
CUresult cuDriverGetVersion(int *v) { *v = 12080; return 0; }
CUresult cuDeviceGetCount(int *n) { *n = 1; return 0; }
CUresult cuDeviceGet(int *d, int i) { *d = i; return 0; }
CUresult cuDeviceGetAttribute(int *v, int attr, int dev) {
  (void)dev; *v = attr == 75 ? 9 : 0; return 0;
}
CUresult cuDevicePrimaryCtxRetain(void **ctx, int dev) { (void)dev; *ctx = (void *)0x1000; return 0; }
CUresult cuDevicePrimaryCtxRelease_v2(int dev) { (void)dev; return 0; }
CUresult cuCtxPushCurrent_v2(void *ctx) { (void)ctx; return 0; }
CUresult cuCtxPopCurrent_v2(void **ctx) { if (ctx) *ctx = (void *)0x1000; return 0; }
CUresult cuCtxSetCurrent(void *ctx) { (void)ctx; return 0; }
CUresult cuStreamCreate(void **s, unsigned flags) { (void)flags; *s = (void *)0x2000; logf_("stream create"); return 0; }
CUresult cuStreamSynchronize(void *s) { (void)s; logf_("sync"); return env_code("FAKE_CUDA_SYNC"); }
CUresult cuStreamDestroy_v2(void *s) { (void)s; return 0; }

static CUresult load(void **m, const void *image) {
  ++nmodules;
  parse_ptx((const char *)image);
  *m = (void *)(uintptr_t)(0x3000 + nmodules);
  logf_("module load %d kernels", nkernels);
  return 0;
}
CUresult cuModuleLoadDataEx(void **m, const void *image, unsigned n, void *o, void *v) {
  (void)n; (void)o; (void)v; return load(m, image);
}
CUresult cuModuleLoadData(void **m, const void *image) { return load(m, image); }
CUresult cuModuleGetFunction(void **f, void *m, const char *name) {
  for (int i = 0; i < nkernels; i++)
    if (kernels[i].module == (int)((uintptr_t)m - 0x3000) && !strcmp(kernels[i].name, name)) { *f = (void *)(uintptr_t)(0x10000 + i); return 0; }
  logf_("no kernel %s", name);
  return 500; /* CUDA_ERROR_NOT_FOUND */
}
CUresult cuModuleUnload(void *m) { (void)m; return 0; }

/* the stream-ordered pool: freed blocks kept by size */
#define MAXFREE 65536
static struct { void *p; size_t n; } freed[MAXFREE];
static int nfreed;
static struct { void *p; size_t n; } live[MAXFREE];
static int nlive;
static CUresult alloc(uint64_t *dp, size_t n, int pooled) {
  const char *lim = getenv("FAKE_CUDA_ALLOC_LIMIT");
  if (lim && (long)n > atol(lim)) { logf_("alloc %zu failed", n); return 2; }
  if (pooled)
    for (int i = 0; i < nfreed; i++)
      if (freed[i].n == n) {
        *dp = (uint64_t)(uintptr_t)freed[i].p;
        freed[i] = freed[--nfreed];
        pooled_allocs++;
        goto done;
      }
  *dp = (uint64_t)(uintptr_t)calloc(1, n ? n : 1);
  fresh_allocs++;
done:
  if (nlive < MAXFREE) { live[nlive].p = (void *)(uintptr_t)*dp; live[nlive++].n = n; }
  live_bytes += n;
  logf_("alloc %zu", n);
  return 0;
}
static size_t forget(uint64_t dp) {
  for (int i = 0; i < nlive; i++)
    if (live[i].p == (void *)(uintptr_t)dp) { size_t n = live[i].n; live[i] = live[--nlive]; live_bytes -= n; return n; }
  return (size_t)-1;
}
CUresult cuMemAlloc_v2(uint64_t *dp, size_t n) { return alloc(dp, n, 0); }
CUresult cuMemFree_v2(uint64_t dp) { forget(dp); free((void *)(uintptr_t)dp); return 0; }
CUresult cuMemAllocAsync(uint64_t *dp, size_t n, void *s) { (void)s; return alloc(dp, n, 1); }
CUresult cuMemFreeAsync(uint64_t dp, void *s) {
  (void)s;
  size_t n = forget(dp);
  if (n == (size_t)-1) { logf_("free of an unknown pointer"); return 1; }
  logf_("free %zu", n);
  if (nfreed < MAXFREE) { freed[nfreed].p = (void *)(uintptr_t)dp; freed[nfreed++].n = n; }
  return 0;
}
CUresult cuDeviceGetDefaultMemPool(void **pool, int dev) { (void)dev; *pool = (void *)0x4000; return 0; }
CUresult cuMemPoolSetAttribute(void *pool, int attr, void *v) {
  (void)pool; logf_("pool attribute %d = %llu", attr, (unsigned long long)*(uint64_t *)v); return 0;
}
CUresult cuMemcpyHtoDAsync_v2(uint64_t d, const void *s, size_t n, void *st) { (void)st; memcpy((void *)(uintptr_t)d, s, n); logf_("htod %zu", n); return 0; }
CUresult cuMemcpyDtoHAsync_v2(void *d, uint64_t s, size_t n, void *st) { (void)st; memcpy(d, (void *)(uintptr_t)s, n); logf_("dtoh %zu", n); return 0; }
CUresult cuMemcpyDtoDAsync_v2(uint64_t d, uint64_t s, size_t n, void *st) { (void)st; memmove((void *)(uintptr_t)d, (void *)(uintptr_t)s, n); logf_("dtod %zu", n); return 0; }
CUresult cuPointerGetAttribute(void *v, int attr, uint64_t p) { (void)attr; (void)p; *(int *)v = 0; return 0; }

CUresult cuLaunchKernel(void *f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
                        unsigned bz, unsigned smem, void *s, void **params, void **extra) {
  (void)s; (void)extra;
  int k = (int)((uintptr_t)f - 0x10000);
  if (k < 0 || k >= nkernels) { logf_("launch of an unknown function"); return 400; }
  char words[3500];
  size_t w = 0;
  words[0] = 0;
  for (int i = 0; i < kernels[k].nparams && w < sizeof words - 24; i++)
    w += snprintf(words + w, sizeof words - w, " %lld", *(long long *)params[i]);
  logf_("launch %s grid %u %u %u block %u %u %u smem %u args%s", kernels[k].name, gx, gy, gz,
        bx, by, bz, smem, words);
  return env_code("FAKE_CUDA_LAUNCH");
}

/* graphs: capture records the launches; replay logs them again */
CUresult cuStreamBeginCapture_v2(void *s, int mode) { (void)s; logf_("capture begin %d", mode); return 0; }
CUresult cuStreamEndCapture(void *s, void **g) { (void)s; *g = (void *)0x5000; logf_("capture end"); return 0; }
CUresult cuGraphInstantiateWithFlags(void **e, void *g, unsigned long long fl) { (void)g; (void)fl; *e = (void *)0x6000; logf_("graph instantiate"); return 0; }
CUresult cuGraphLaunch(void *e, void *s) { (void)e; (void)s; logf_("graph launch"); return 0; }
CUresult cuGraphExecDestroy(void *e) { (void)e; logf_("graph destroy"); return 0; }
CUresult cuGraphDestroy(void *g) { (void)g; return 0; }

CUresult cuGetErrorName(CUresult c, const char **s) {
  switch (c) {
  case 2: *s = "CUDA_ERROR_OUT_OF_MEMORY"; break;
  case 100: *s = "CUDA_ERROR_NO_DEVICE"; break;
  case 700: *s = "CUDA_ERROR_ILLEGAL_ADDRESS"; break;
  case 701: *s = "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES"; break;
  default: *s = "CUDA_ERROR_UNKNOWN";
  }
  return 0;
}
CUresult cuGetErrorString(CUresult c, const char **s) { (void)c; *s = "fake"; return 0; }

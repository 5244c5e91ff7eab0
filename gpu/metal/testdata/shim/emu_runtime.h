// The CPU runtime of an emulated Metal dispatch: a grid of threadgroups,
// each threadgroup's threads run as fibers on one OS thread, switched only
// where a kernel waits for the others (threadgroup_barrier, the
// SIMD-group functions). A round runs every ready thread up to its next
// such point; then a barrier releases its threads once every unfinished
// thread of the threadgroup has reached it, and a SIMD-group operation is
// computed once every thread of its SIMD-group of 32 has reached it. A
// thread that returns while others wait at a barrier, or SIMD-group
// threads at different operations, are the kernel's error (undefined on
// a GPU), reported rather than run on. Threadgroups run one after another
// (go test runs packages side by side already).
//
// Included once, after the kernel, by the trampoline the tests generate,
// which defines the lane function calling the kernel with its arguments.
#ifndef EMBER_EMU_RUNTIME
#define EMBER_EMU_RUNTIME

// The kernel is done with MSL's address-space qualifiers, which would
// otherwise unmake the C library's declarations.
#undef kernel
#undef device
#undef constant
#undef thread
#undef threadgroup

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace emu {

// The built-in inputs of one thread.
struct Lane {
    metal::uint3 tgpig, tpitg, tptg, tpig, ntg;
    uint tiitg, sgitg, tiisg, tpsg;
    // Fiber state.
    void* sp = nullptr;
    enum { READY, BARRIER, SIMD, DONE } state = READY;
    SimdOp op;
    SimdType type;
    uint32_t in = 0, out = 0;
};

typedef void (*LaneFn)(void** bufs, void** tg, const Lane& lane);

struct Worker;
static Worker* current = nullptr; // the worker running (one at a time)

extern "C" void emu_switch(void** save, void* to);

#if defined(__x86_64__)
// emu_switch saves the callee-saved registers on the current stack, stores
// its pointer in *save and resumes the stack at to.
asm(R"(
.text
.globl emu_switch
.type emu_switch,@function
emu_switch:
    pushq %rbp
    pushq %rbx
    pushq %r12
    pushq %r13
    pushq %r14
    pushq %r15
    movq %rsp, (%rdi)
    movq %rsi, %rsp
    popq %r15
    popq %r14
    popq %r13
    popq %r12
    popq %rbx
    popq %rbp
    ret
)");
#elif defined(__aarch64__)
asm(R"(
.text
.globl emu_switch
.type emu_switch,%function
emu_switch:
    sub sp, sp, #176
    stp x19, x20, [sp, #0]
    stp x21, x22, [sp, #16]
    stp x23, x24, [sp, #32]
    stp x25, x26, [sp, #48]
    stp x27, x28, [sp, #64]
    stp x29, x30, [sp, #80]
    stp d8, d9, [sp, #96]
    stp d10, d11, [sp, #112]
    stp d12, d13, [sp, #128]
    stp d14, d15, [sp, #144]
    mov x9, sp
    str x9, [x0]
    mov sp, x1
    ldp x19, x20, [sp, #0]
    ldp x21, x22, [sp, #16]
    ldp x23, x24, [sp, #32]
    ldp x25, x26, [sp, #48]
    ldp x27, x28, [sp, #64]
    ldp x29, x30, [sp, #80]
    ldp d8, d9, [sp, #96]
    ldp d10, d11, [sp, #112]
    ldp d12, d13, [sp, #128]
    ldp d14, d15, [sp, #144]
    add sp, sp, #176
    ret
)");
#else
#error "the emulated Metal runtime switches fibers on x86-64 and arm64 only"
#endif

static const size_t stackBytes = 64 << 10;

// Worker runs threadgroups one after another on one OS thread.
struct Worker {
    LaneFn fn = nullptr;
    void** bufs = nullptr;
    // Threadgroup memory: ntg arguments of tgBytes[i] bytes.
    void** tg = nullptr;
    const uint64_t* tgBytes = nullptr;
    int ntg = 0;
    Lane* lanes = nullptr;
    char** stacks = nullptr;
    size_t n = 0;
    Lane* running = nullptr;
    void* sched = nullptr;
    char err[256] = {0};

    void init(size_t threads, int nTG, const uint64_t* bytes) {
        n = threads;
        lanes = new Lane[n];
        stacks = (char**)calloc(n, sizeof(char*));
        for (size_t t = 0; t < n; t++) stacks[t] = (char*)malloc(stackBytes);
        ntg = nTG;
        uint64_t* kb = (uint64_t*)calloc(ntg > 0 ? ntg : 1, sizeof(uint64_t));
        memcpy(kb, bytes, ntg * sizeof(uint64_t));
        tgBytes = kb;
        tg = (void**)calloc(ntg > 0 ? ntg : 1, sizeof(void*));
        for (int i = 0; i < ntg; i++) tg[i] = calloc(1, bytes[i] < 16 ? 16 : bytes[i]);
    }

    ~Worker() {
        for (size_t t = 0; t < n; t++) free(stacks[t]);
        free(stacks);
        for (int i = 0; i < ntg; i++) free(tg[i]);
        free(tg);
        free((void*)tgBytes);
        delete[] lanes;
    }

    static void entry() {
        Worker* w = current;
        Lane* l = w->running;
        w->fn(w->bufs, w->tg, *l);
        l->state = Lane::DONE;
        emu_switch(&l->sp, w->sched);
        __builtin_trap(); // a finished fiber is never resumed
    }

    // start prepares lane l's fiber to begin at entry.
    void start(Lane& l, char* stack) {
        uintptr_t top = ((uintptr_t)stack + stackBytes) & ~(uintptr_t)15;
        void** sp = (void**)top;
#if defined(__x86_64__)
        *--sp = nullptr;         // entry's return address, never used
        *--sp = (void*)&entry;   // where emu_switch returns to
        for (int i = 0; i < 6; i++) *--sp = nullptr;
#else
        sp -= 22;                // the saved registers, x30 (at 11) the return address
        for (int i = 0; i < 22; i++) sp[i] = nullptr;
        sp[11] = (void*)&entry;
#endif
        l.sp = sp;
        l.state = Lane::READY;
    }

    void fail(const char* msg, const Lane& l) {
        if (!err[0])
            snprintf(err, sizeof err, "%s (threadgroup %u,%u,%u thread %u)", msg, l.tgpig.x, l.tgpig.y, l.tgpig.z, l.tiitg);
    }

    // resolve settles the waits of a round; it returns false when no
    // thread can go on.
    bool resolve() {
        size_t waiting = 0, done = 0;
        for (size_t i = 0; i < n; i++) {
            waiting += lanes[i].state == Lane::BARRIER;
            done += lanes[i].state == Lane::DONE;
        }
        bool moved = false;
        for (size_t s = 0; s < n; s += 32) {
            size_t e = s + 32 < n ? s + 32 : n;
            Lane& a = lanes[s];
            bool all = true;
            for (size_t i = s; i < e; i++) {
                Lane& l = lanes[i];
                all = all && l.state == Lane::SIMD && l.op == a.op && l.type == a.type;
            }
            if (all) {
                uint32_t r = combine(s, e);
                for (size_t i = s; i < e; i++) lanes[i].out = r, lanes[i].state = Lane::READY;
                moved = true;
            } else {
                for (size_t i = s; i < e; i++)
                    if (lanes[i].state == Lane::SIMD) {
                        for (size_t j = s; j < e; j++)
                            if (lanes[j].state != Lane::SIMD && lanes[j].state != Lane::BARRIER) {
                                fail("a SIMD-group function not reached by every thread of the SIMD-group", lanes[j]);
                                return false;
                            }
                        break;
                    }
            }
        }
        if (moved) return true;
        if (waiting > 0 && waiting + done == n) {
            for (size_t i = 0; i < n; i++)
                if (lanes[i].state == Lane::DONE) {
                    fail("a thread returned while others wait at a threadgroup barrier", lanes[i]);
                    return false;
                }
            for (size_t i = 0; i < n; i++) lanes[i].state = Lane::READY;
            return true;
        }
        if (done == n) return false;
        fail("threads wait for each other at different points", lanes[0]);
        return false;
    }

    uint32_t combine(size_t s, size_t e) {
        Lane& a = lanes[s];
        if (a.op == SIMD_BROADCAST_FIRST) return a.in;
        if (a.type == SIMD_FLOAT) {
            float r = metal::bits_f32(a.in);
            for (size_t i = s + 1; i < e; i++) {
                float x = metal::bits_f32(lanes[i].in);
                r = a.op == SIMD_SUM ? r + x : a.op == SIMD_MAX ? metal::max(r, x) : metal::min(r, x);
            }
            return metal::f32_bits(r);
        }
        if (a.type == SIMD_INT) {
            int r = (int)a.in;
            for (size_t i = s + 1; i < e; i++) {
                int x = (int)lanes[i].in;
                r = a.op == SIMD_SUM ? r + x : a.op == SIMD_MAX ? metal::max(r, x) : metal::min(r, x);
            }
            return (uint32_t)r;
        }
        uint32_t r = a.in;
        for (size_t i = s + 1; i < e; i++) {
            uint32_t x = lanes[i].in;
            r = a.op == SIMD_SUM ? r + x : a.op == SIMD_MAX ? metal::max(r, x) : metal::min(r, x);
        }
        return r;
    }

    // group runs threadgroup (gx, gy, gz) of a grid of ng groups of
    // threads threads.
    bool group(metal::uint3 g, metal::uint3 ng) {
        uint threads = (uint)n;
        for (int i = 0; i < ntg; i++) memset(tg[i], 0, tgBytes[i]);
        for (uint t = 0; t < threads; t++) {
            Lane& l = lanes[t];
            l.tgpig = g;
            l.tpitg = metal::uint3(t, 0, 0);
            l.tptg = metal::uint3(threads, 1, 1);
            l.tpig = metal::uint3(g.x * threads + t, g.y, g.z);
            l.ntg = ng;
            l.tiitg = t;
            l.sgitg = t / 32;
            l.tiisg = t % 32;
            l.tpsg = 32;
            start(l, stacks[t]);
        }
        for (;;) {
            for (size_t i = 0; i < n; i++) {
                if (lanes[i].state != Lane::READY) continue;
                running = &lanes[i];
                emu_switch(&sched, lanes[i].sp);
            }
            if (!resolve()) break;
        }
        running = nullptr;
        return err[0] == 0;
    }
};

void barrier() {
    Worker* w = current;
    Lane* l = w->running;
    l->state = Lane::BARRIER;
    emu_switch(&l->sp, w->sched);
}

uint32_t simd(SimdOp op, SimdType t, uint32_t bits) {
    Worker* w = current;
    Lane* l = w->running;
    l->state = Lane::SIMD;
    l->op = op;
    l->type = t;
    l->in = bits;
    emu_switch(&l->sp, w->sched);
    return l->out;
}

// dispatch runs the grid: fn for each thread, with bufs the buffer
// arguments and threadgroup memory of tgBytes[i] bytes for argument i.
// The threadgroups run one after another on the calling thread, with one
// worker kept from call to call (its fibers' stacks are the costly part).
// It writes the first error to err and returns nonzero for one.
static int dispatch(LaneFn fn, void** bufs, const uint64_t* grid, uint threads, const uint64_t* tgBytes, int ntg,
                    char* err, int errLen) {
    static Worker* kept = nullptr;
    if (kept && (kept->n != threads || kept->ntg != ntg || memcmp(kept->tgBytes, tgBytes, ntg * sizeof(uint64_t)))) {
        delete kept;
        kept = nullptr;
    }
    if (!kept) {
        kept = new Worker;
        kept->init(threads, ntg, tgBytes);
    }
    Worker* w = kept;
    w->fn = fn;
    w->bufs = bufs;
    w->err[0] = 0;
    current = w;
    uint64_t total = grid[0] * grid[1] * grid[2];
    metal::uint3 ng((uint)grid[0], (uint)grid[1], (uint)grid[2]);
    for (uint64_t i = 0; i < total; i++) {
        metal::uint3 g((uint)(i % grid[0]), (uint)(i / grid[0] % grid[1]), (uint)(i / (grid[0] * grid[1])));
        if (!w->group(g, ng)) break;
    }
    current = nullptr;
    if (w->err[0]) {
        snprintf(err, errLen, "%s", w->err);
        return 1;
    }
    return 0;
}

} // namespace emu

#endif

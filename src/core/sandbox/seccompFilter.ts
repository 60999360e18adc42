/**
 * A classic-BPF seccomp program, generated here (no native helper to build or download), that bwrap
 * loads with `--seccomp FD` before it execs the command: `socket(AF_UNIX, ...)` fails with EPERM,
 * so a sandboxed command cannot connect to a unix socket it can see on the host (docker.sock, the
 * user's systemd bus, ssh-agent, gpg-agent, keyrings) however it names the path. `socketpair()` stays
 * allowed: it only makes a connected pair inside the process, which is how a test runner talks to
 * its workers (node's fork() IPC, python's multiprocessing).
 *
 * Why each rule (test/integration/sandbox/unixSocketFilter.test.ts runs real programs under it):
 * - The architecture is checked first: syscall numbers differ per ABI, and a 64-bit process may
 *   enter the kernel through the 32-bit compat ABI (`int 0x80` on x86_64, AArch32 on arm64), where
 *   the same numbers mean other calls. The compat ABIs get their own `socket` rule and refuse
 *   `socketcall(SYS_SOCKET, ...)` (socketcall hides the domain in memory a filter cannot read; its
 *   other sub-calls, socketpair included, stay allowed). Any other architecture is killed.
 * - x86_64's x32 ABI uses the x86_64 architecture value with bit 30 set in the number: refused.
 * - io_uring can create sockets without the socket() syscall (IORING_OP_SOCKET): refused, as
 *   Docker's default profile does; programs that try it fall back to ordinary syscalls.
 * - Only the low 32 bits of the domain are compared: the kernel reads the argument as an int, so
 *   junk in the high bits must not turn an AF_UNIX call into one the filter lets through.
 */

const AF_UNIX = 1;
const EPERM = 1;
const SYS_SOCKET = 1; // socketcall's first argument for socket()

const RET_ALLOW = 0x7fff0000;
const RET_ERRNO = 0x00050000;
const RET_KILL_PROCESS = 0x80000000;

const LD_W_ABS = 0x20; // BPF_LD | BPF_W | BPF_ABS
const JEQ_K = 0x15; // BPF_JMP | BPF_JEQ | BPF_K
const JSET_K = 0x45; // BPF_JMP | BPF_JSET | BPF_K
const RET_K = 0x06; // BPF_RET | BPF_K

// struct seccomp_data: int nr; __u32 arch; __u64 instruction_pointer; __u64 args[6] (little-endian here).
const OFFSET_NR = 0;
const OFFSET_ARCH = 4;
const OFFSET_ARG0_LOW = 16;

const X32_SYSCALL_BIT = 0x40000000;
const IO_URING_CALLS = [425, 426, 427]; // io_uring_setup, _enter, _register: the same on every ABI below

interface Abi {
  /** AUDIT_ARCH_* as seccomp_data.arch reports it. */
  audit: number;
  socket: number;
  socketcall?: number;
  x32?: boolean;
}

const X86_64: Abi = { audit: 0xc000003e, socket: 41, x32: true };
const I386: Abi = { audit: 0x40000003, socket: 359, socketcall: 102 };
const AARCH64: Abi = { audit: 0xc00000b7, socket: 198 };
const ARM: Abi = { audit: 0x40000028, socket: 281, socketcall: 102 };

/** The ABIs a process of each Node architecture can use (its own first, then its compat one). */
const ABIS_BY_NODE_ARCH: Readonly<Record<string, readonly Abi[]>> = {
  x64: [X86_64, I386],
  arm64: [AARCH64, ARM],
};

/** Node architectures the filter knows; elsewhere unix sockets are not blocked (and the sandbox says so). */
export function unixSocketFilterSupported(arch: string = process.arch): boolean {
  return arch in ABIS_BY_NODE_ARCH;
}

/**
 * The program's bytes (struct sock_filter[]: u16 code, u8 jt, u8 jf, u32 k; little-endian, which both
 * supported architectures are), or undefined on an architecture the filter does not know.
 */
export function unixSocketFilter(arch: string = process.arch): Buffer | undefined {
  const abis = ABIS_BY_NODE_ARCH[arch];
  if (!abis) return undefined;
  const asm = new Assembler();
  for (const abi of abis) {
    const next = `not-${abi.audit}`;
    asm.op(LD_W_ABS, OFFSET_ARCH);
    asm.jump(JEQ_K, abi.audit, undefined, next);
    asm.op(LD_W_ABS, OFFSET_NR);
    if (abi.x32) asm.jump(JSET_K, X32_SYSCALL_BIT, 'deny');
    asm.jump(JEQ_K, abi.socket, `socket-${abi.audit}`);
    if (abi.socketcall !== undefined) asm.jump(JEQ_K, abi.socketcall, `socketcall-${abi.audit}`);
    for (const nr of IO_URING_CALLS) asm.jump(JEQ_K, nr, 'deny');
    asm.op(RET_K, RET_ALLOW);
    asm.label(`socket-${abi.audit}`);
    asm.op(LD_W_ABS, OFFSET_ARG0_LOW);
    asm.jump(JEQ_K, AF_UNIX, 'deny');
    asm.op(RET_K, RET_ALLOW);
    if (abi.socketcall !== undefined) {
      asm.label(`socketcall-${abi.audit}`);
      asm.op(LD_W_ABS, OFFSET_ARG0_LOW);
      asm.jump(JEQ_K, SYS_SOCKET, 'deny');
      asm.op(RET_K, RET_ALLOW);
    }
    asm.label(next);
  }
  asm.op(RET_K, RET_KILL_PROCESS);
  asm.label('deny');
  asm.op(RET_K, RET_ERRNO | EPERM);
  return asm.assemble();
}

interface Instruction {
  code: number;
  k: number;
  jt?: string;
  jf?: string;
}

/** Classic BPF jumps are relative and forward only; labels are resolved once every instruction is known. */
class Assembler {
  private readonly code: Instruction[] = [];
  private readonly labels = new Map<string, number>();

  op(code: number, k: number): void {
    this.code.push({ code, k });
  }

  /** A conditional jump: to `jt` when true, to `jf` when false; undefined means the next instruction. */
  jump(code: number, k: number, jt?: string, jf?: string): void {
    this.code.push({ code, k, jt, jf });
  }

  label(name: string): void {
    this.labels.set(name, this.code.length);
  }

  assemble(): Buffer {
    const out = Buffer.alloc(this.code.length * 8);
    this.code.forEach((ins, i) => {
      out.writeUInt16LE(ins.code, i * 8);
      out.writeUInt8(this.offset(i, ins.jt), i * 8 + 2);
      out.writeUInt8(this.offset(i, ins.jf), i * 8 + 3);
      out.writeUInt32LE(ins.k >>> 0, i * 8 + 4);
    });
    return out;
  }

  private offset(from: number, label: string | undefined): number {
    if (label === undefined) return 0;
    const to = this.labels.get(label);
    if (to === undefined) throw new Error(`seccomp filter: unknown label ${label}`);
    const distance = to - from - 1;
    if (distance < 0 || distance > 255) throw new Error(`seccomp filter: jump to ${label} out of range (${distance})`);
    return distance;
  }
}

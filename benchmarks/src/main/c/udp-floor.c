// udp-floor: the floor of the kernel's UDP path on this machine, which no RoCE stack built on UDP
// sockets (jroce included) can beat per datagram: plain sockets, no protocol, nothing on top.
// `jroce bench --floor` (io.jroce.benchmarks.harness) compiles it with the system's cc
// (cc -O2 -pthread) and runs it alternating with the perftest twins, with datagrams the size of
// the RoCE packets they send; docs/benchmarks.md explains the comparison. It was written for
// issue 14 of jroce as a measuring stick, and is kept here unchanged but for this header and pp's
// optional CPUs, so that the figures can be reproduced from the repository alone.
//
// Build by hand: cc -O2 -pthread -o udp-floor udp-floor.c
// Each mode prints one line, which the harness parses (FloorReport):
//   udp-floor bw size=96: 0.163 Gbit/s received, 0.212 Mpps
//   udp-floor pp size=80: half round trip median 5.68 usec, p99 9.31 usec (two processes, busy polling)
// (SIZE is the UDP payload; Gbit/s counts UDP payload bytes received.)
// What each mode measures (loopback, 127.0.0.1:47911 -> 127.0.0.2:47910):
//   udp-floor bw SIZE SECONDS   : one sender thread (sendmmsg, batches of 32) -> one receiver thread
//                                    (recvmmsg), 127.0.0.1 -> 127.0.0.2; prints received Gbit/s and Mpps
//   udp-floor rtt SIZE COUNT    : ping-pong in one thread (both ends); median round trip in usec
//   udp-floor pp SIZE COUNT     : ping-pong between two processes, each spinning on a non-blocking
//                                    recv (the busy-polling floor a user could write by hand); prints
//                                    median and p99 half round trip in usec, as perftest's t_typical
//   udp-floor pp SIZE COUNT CPU_TIMING CPU_ECHO : the same, the timing process pinned to the first
//                                    CPU and the echo process to the second (the harness pins the
//                                    twins of a latency case alike, with taskset)
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
static int size; static double secs; static volatile int stop; static int rx_fd, tx_fd;
static struct sockaddr_in a_rx, a_tx;
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec / 1e9; }
static int sock(struct sockaddr_in *a, const char *ip, int port) {
  int fd = socket(AF_INET, SOCK_DGRAM, 0), big = 32 << 20;
  setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &big, sizeof big); setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &big, sizeof big);
  memset(a, 0, sizeof *a); a->sin_family = AF_INET; a->sin_port = htons(port); inet_pton(AF_INET, ip, &a->sin_addr);
  if (bind(fd, (void *)a, sizeof *a)) { perror("bind"); exit(1); }
  return fd;
}
static long rx_bytes, rx_pkts;
static void *receiver(void *x) {
  enum { B = 64 }; static char buf[B][65536]; struct mmsghdr m[B]; struct iovec v[B];
  struct timeval tv = {0, 100000}; setsockopt(rx_fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  for (int i = 0; i < B; i++) { v[i].iov_base = buf[i]; v[i].iov_len = 65536; memset(&m[i], 0, sizeof m[i]); m[i].msg_hdr.msg_iov = &v[i]; m[i].msg_hdr.msg_iovlen = 1; }
  while (!stop) { int n = recvmmsg(rx_fd, m, B, 0, NULL); for (int i = 0; i < n; i++) { rx_bytes += m[i].msg_len; rx_pkts++; } }
  return x;
}
static int pin(int cpu) {
  cpu_set_t cpus; CPU_ZERO(&cpus); CPU_SET(cpu, &cpus);
  if (sched_setaffinity(0, sizeof cpus, &cpus)) { perror("sched_setaffinity"); return 1; }
  return 0;
}
int main(int argc, char **argv) {
  if (argc < 4) { fprintf(stderr, "usage: udp-floor bw|rtt|pp SIZE SECONDS|COUNT [CPU_TIMING CPU_ECHO (pp)]\n"); return 2; }
  size = atoi(argv[2]);
  rx_fd = sock(&a_rx, "127.0.0.2", 47910); tx_fd = sock(&a_tx, "127.0.0.1", 47911);
  if (!strcmp(argv[1], "bw")) {
    secs = atof(argv[3]); pthread_t t; pthread_create(&t, NULL, receiver, NULL);
    enum { B = 32 }; char *buf = calloc(1, size); struct mmsghdr m[B]; struct iovec v[B];
    for (int i = 0; i < B; i++) { v[i].iov_base = buf; v[i].iov_len = size; memset(&m[i], 0, sizeof m[i]); m[i].msg_hdr.msg_iov = &v[i]; m[i].msg_hdr.msg_iovlen = 1; m[i].msg_hdr.msg_name = &a_rx; m[i].msg_hdr.msg_namelen = sizeof a_rx; }
    double t0 = now(), warm = t0 + 0.5; long b0 = 0, p0 = 0; double ts = 0;
    while (now() < t0 + secs + 0.5) { sendmmsg(tx_fd, m, B, 0); if (!ts && now() > warm) { ts = now(); b0 = rx_bytes; p0 = rx_pkts; } }
    double el = now() - ts; long b = rx_bytes - b0, p = rx_pkts - p0; stop = 1; pthread_join(t, NULL);
    printf("udp-floor bw size=%d: %.3f Gbit/s received, %.3f Mpps\n", size, b * 8 / el / 1e9, p / el / 1e6);
  } else if (!strcmp(argv[1], "pp")) {
    int n = atoi(argv[3]), warm = n / 10; char buf[65536]; double *r = calloc(n, sizeof *r);
    // Each process on its own CPU: the echo side's (argv[5]) is set before the fork, which it inherits.
    if (argc > 5 && pin(atoi(argv[5]))) return 1;
    pid_t child = fork();
    if (child != 0 && argc > 5 && pin(atoi(argv[4]))) { kill(child, SIGKILL); return 1; }
    if (child == 0) {  // echo side: spin on rx_fd, answer to tx_fd's address
      for (int i = 0; i < n + warm; i++) { while (recv(rx_fd, buf, sizeof buf, MSG_DONTWAIT) < 0) ; sendto(rx_fd, buf, size, 0, (void *)&a_tx, sizeof a_tx); }
      _exit(0);
    }
    for (int i = 0; i < n + warm; i++) {
      double t = now(); sendto(tx_fd, buf, size, 0, (void *)&a_rx, sizeof a_rx);
      while (recv(tx_fd, buf, sizeof buf, MSG_DONTWAIT) < 0) ;
      if (i >= warm) r[i - warm] = (now() - t) * 1e6 / 2;
    }
    int cmp(const void *a, const void *b) { double d = *(double *)a - *(double *)b; return d < 0 ? -1 : d > 0; }
    qsort(r, n, sizeof *r, cmp);
    printf("udp-floor pp size=%d: half round trip median %.2f usec, p99 %.2f usec (two processes, busy polling)\n", size, r[n / 2], r[n * 99 / 100]);
  } else {
    int n = atoi(argv[3]); char buf[65536]; double *r = calloc(n, sizeof *r);
    for (int i = 0; i < n; i++) {
      double t = now(); sendto(tx_fd, buf, size, 0, (void *)&a_rx, sizeof a_rx); recv(rx_fd, buf, sizeof buf, 0);
      sendto(rx_fd, buf, size, 0, (void *)&a_tx, sizeof a_tx); recv(tx_fd, buf, sizeof buf, 0); r[i] = (now() - t) * 1e6;
    }
    int cmp(const void *a, const void *b) { double d = *(double *)a - *(double *)b; return d < 0 ? -1 : d > 0; }
    qsort(r, n, sizeof *r, cmp);
    printf("udp-floor rtt size=%d: median %.2f usec, p99 %.2f usec (same thread both ends: syscall cost only)\n", size, r[n / 2], r[n * 99 / 100]);
  }
  return 0;
}

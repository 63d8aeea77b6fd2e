// ack-model: what a ping-pong's ACK costs on the kernel's UDP path, without jroce. Two processes
// ping-pong over loopback as udp-floor's pp mode does, but each half round trip carries what an
// RC ping-pong carries: an 80-byte answer and a 20-byte ACK. The modes differ in how those two
// datagrams are sent and read; docs/benchmarks.md ("The sitting of 2026-11-28, noon") quotes them.
// Written for issue 14 of jroce to decide where its invoker mode's ACK should go.
//
// Build and run by hand: cc -O2 -o ack-model ack-model.c && ./ack-model MODE 50000
//   0  one 80-byte datagram (the floor: no ACK at all), read by recvmsg
//   1  two datagrams [ACK 20, answer 80] in one sendmmsg, read by recvmmsg after a getsockopt, as
//      Netty's recvmmsg0 reads (it asks IP_RECVORIGDSTADDR before every call)
//   2  the same two datagrams, read by recvmsg, one each
//   3  one UDP GSO message [answer 80, ACK 20] (segment size 80), to a socket without UDP_GRO (the
//      kernel cuts it into two datagrams on arrival), read by recvmsg
//   4  the same GSO message to a socket with UDP_GRO, read whole by one recvmsg
//   5  the answer alone (sendto), then the ACK in a second sendto; the reader's half round trip ends
//      at the answer, an ACK is read whenever it comes (the ACK sent after the answer, off its path)
//   6  the run of mode 4 through sendto(2), without a control message: the sockets' UDP_SEGMENT
//      option is 80 (the direct transport's path once two flushes started with runs of that size)
//   7  the run of mode 4 through sendmmsg(2) without a control message, the option at 80 (mode 6's
//      option without its sendto: which of the two makes the difference)
// Prints the median and 99th percentile of the half round trip in usec, and the median time the
// sending call(s) of one half round trip take: on loopback the sender's call also runs the
// receiving side of the kernel's UDP path, so it is most of the half round trip.
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <netinet/udp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#ifndef UDP_SEGMENT
#define UDP_SEGMENT 103
#endif
#ifndef UDP_GRO
#define UDP_GRO 104
#endif
static int mode;
static struct sockaddr_in a_rx, a_tx;
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec / 1e9; }
static int sock(struct sockaddr_in *a, const char *ip, int port) {
  int fd = socket(AF_INET, SOCK_DGRAM, 0), big = 4 << 20;
  setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &big, sizeof big);
  memset(a, 0, sizeof *a); a->sin_family = AF_INET; a->sin_port = htons(port); inet_pton(AF_INET, ip, &a->sin_addr);
  if (bind(fd, (void *)a, sizeof *a)) { perror("bind"); exit(1); }
  if (mode == 4 || mode == 6 || mode == 7) { int one = 1; setsockopt(fd, SOL_UDP, UDP_GRO, &one, sizeof one); }
  if (mode == 6 || mode == 7) { int seg = 80; if (setsockopt(fd, SOL_UDP, UDP_SEGMENT, &seg, sizeof seg)) { perror("UDP_SEGMENT"); exit(1); } }
  return fd;
}
static char big[65536], sb[100];
static void send2(int fd, struct sockaddr_in *to) {
  if (mode == 0) { sendto(fd, sb, 80, 0, (void *)to, sizeof *to); return; }
  if (mode == 5) { sendto(fd, sb, 80, 0, (void *)to, sizeof *to); sendto(fd, sb, 20, 0, (void *)to, sizeof *to); return; }
  if (mode == 6) { sendto(fd, sb, 100, 0, (void *)to, sizeof *to); return; }
  if (mode == 7) {
    struct mmsghdr mm; struct iovec v; memset(&mm, 0, sizeof mm); v.iov_base = sb; v.iov_len = 100;
    mm.msg_hdr.msg_iov = &v; mm.msg_hdr.msg_iovlen = 1; mm.msg_hdr.msg_name = to; mm.msg_hdr.msg_namelen = sizeof *to;
    sendmmsg(fd, &mm, 1, 0); return;
  }
  if (mode == 1 || mode == 2) {
    struct mmsghdr m[2]; struct iovec v[2]; memset(m, 0, sizeof m);
    v[0].iov_base = sb; v[0].iov_len = 20; v[1].iov_base = sb + 20; v[1].iov_len = 80;
    for (int i = 0; i < 2; i++) { m[i].msg_hdr.msg_iov = &v[i]; m[i].msg_hdr.msg_iovlen = 1; m[i].msg_hdr.msg_name = to; m[i].msg_hdr.msg_namelen = sizeof *to; }
    sendmmsg(fd, m, 2, 0); return;
  }
  // GSO [80, 20]
  struct msghdr h; struct iovec v; char ctl[CMSG_SPACE(sizeof(unsigned short))]; memset(&h, 0, sizeof h); memset(ctl, 0, sizeof ctl);
  v.iov_base = sb; v.iov_len = 100; h.msg_iov = &v; h.msg_iovlen = 1; h.msg_name = to; h.msg_namelen = sizeof *to;
  h.msg_control = ctl; h.msg_controllen = sizeof ctl;
  struct cmsghdr *c = CMSG_FIRSTHDR(&h); c->cmsg_level = SOL_UDP; c->cmsg_type = UDP_SEGMENT; c->cmsg_len = CMSG_LEN(sizeof(unsigned short));
  *(unsigned short *)CMSG_DATA(c) = 80;
  struct mmsghdr mm; memset(&mm, 0, sizeof mm); mm.msg_hdr = h;
  if (sendmmsg(fd, &mm, 1, 0) != 1) perror("gso");
}
static void recv2(int fd) {
  if (mode == 5) { for (;;) { if (recv(fd, big, sizeof big, MSG_DONTWAIT) == 80) return; } }
  int want = mode == 0 ? 80 : 100, got = 0;
  while (got < want) {
    if (mode == 1) {
      struct mmsghdr m[32]; struct iovec v[32]; memset(m, 0, sizeof m);
      int x; socklen_t xl = sizeof x; getsockopt(fd, IPPROTO_IP, IP_RECVORIGDSTADDR, &x, &xl);
      for (int i = 0; i < 32; i++) { v[i].iov_base = big + i * 2048; v[i].iov_len = 2048; m[i].msg_hdr.msg_iov = &v[i]; m[i].msg_hdr.msg_iovlen = 1; }
      int n = recvmmsg(fd, m, 32, MSG_DONTWAIT, NULL);
      for (int i = 0; i < n; i++) got += m[i].msg_len;
    } else {
      struct msghdr h; struct iovec v; char ctl[64]; struct sockaddr_storage ss; memset(&h, 0, sizeof h);
      v.iov_base = big; v.iov_len = sizeof big; h.msg_iov = &v; h.msg_iovlen = 1; h.msg_control = ctl; h.msg_controllen = sizeof ctl; h.msg_name = &ss; h.msg_namelen = sizeof ss;
      int n = recvmsg(fd, &h, MSG_DONTWAIT);
      if (n > 0) got += n;
    }
  }
}
int main(int argc, char **argv) {
  mode = atoi(argv[1]); int n = atoi(argv[2]), warm = n / 10; double *r = calloc(n, sizeof *r), *s = calloc(n, sizeof *s);
  int rx_fd = sock(&a_rx, "127.0.0.2", 47920), tx_fd = sock(&a_tx, "127.0.0.1", 47921);
  pid_t child = fork();
  if (child == 0) { for (int i = 0; i < n + warm; i++) { recv2(rx_fd); send2(rx_fd, &a_tx); } _exit(0); }
  for (int i = 0; i < n + warm; i++) {
    double t = now(); send2(tx_fd, &a_rx); double sent = now(); recv2(tx_fd);
    if (i >= warm) { r[i - warm] = (now() - t) * 1e6 / 2; s[i - warm] = (sent - t) * 1e6; }
  }
  int cmp(const void *a, const void *b) { double d = *(double *)a - *(double *)b; return d < 0 ? -1 : d > 0; }
  qsort(r, n, sizeof *r, cmp);
  qsort(s, n, sizeof *s, cmp);
  printf("mode %d: half rtt median %.2f p99 %.2f; sending call median %.2f\n", mode, r[n / 2], r[n * 99 / 100], s[n / 2]);
  return 0;
}

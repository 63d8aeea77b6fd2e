/*
 * rc_ops_peer: one RC queue pair on rxe, driven over TCP by a test on the other side (jroce),
 * for interop tests of every RC operation. Both sides check the data.
 *
 *   rc_ops_peer [-p PORT] [-g GID_INDEX] [-m MTU] [-s BUF_BYTES] HOST
 *
 * Connects to HOST:PORT (default 18516; retries for up to 120 s while refused), then speaks a
 * line protocol (ASCII, '\n'-terminated, numbers in hex unless noted):
 *
 *   peer -> host  "QP <qpn> <psn> <gid: 32 hex digits> <rkey> <addr> <buf_bytes>"
 *   host -> peer  the same line for its side
 * Both move their QP to RTR/RTS (path MTU -m, max_rd_atomic/max_dest_rd_atomic 16, rnr/retry 7).
 * The peer's buffer (BUF_BYTES, page aligned, LOCAL_WRITE|REMOTE_READ|REMOTE_WRITE|REMOTE_ATOMIC|MW_BIND,
 * the <addr>/<rkey> above) starts as pattern(0). pattern(seed)[i] = (seed + 7*i + (i >> 8)) & 0xff.
 * A second, local buffer of the same size holds what the peer sends, receives and reads.
 * Then the host sends commands, one line each; the peer answers each with one line:
 *
 *   Passive side (the host's QP drives operations at the peer):
 *   FILL seed            fill the peer buffer with pattern(seed)              -> "OK"
 *   SET64 off value      store a u64 in native byte order at buffer+off       -> "OK"
 *   MEM off len          read buffer[off, off+len)                            -> "MEM <crc32> <first <=16 bytes in hex>"
 *   RECV len             post one receive of len bytes into the local buffer  -> "OK"
 *   WAITRECV             wait (<= 60 s) for one receive completion            -> "WC <status> <opcode> <byte_len(dec)> <imm|-> <crc32 of received data> <inv|-> <wc_flags>"
 *                        (<inv>: wc.invalidated_rkey when the host sent SEND_WITH_INV; see the note on rxe's
 *                        wc_flags in command(); <wc_flags> raw, hex)
 *   MWBIND off len access     allocate (once) a type 2 memory window and bind it with IBV_WR_BIND_MW to
 *                        buffer[off, off+len) with access (IBV_ACCESS_* bits, e.g. 2 REMOTE_WRITE | 4 REMOTE_READ),
 *                        rkey ibv_inc_rkey(previous rkey)               -> "MW <status> <rkey> <addr>"
 *   Active side (the peer drives operations at the host's buffer; <roff> is relative to its <addr>):
 *   SEND len seed [imm]          send pattern(seed)[0, len) (with immediate)  -> "WC <status> <opcode> <byte_len> - <crc32>"
 *   WRITE roff len seed [imm]    RDMA WRITE (with immediate) of pattern(seed) -> same
 *   READ roff len seed           RDMA READ, checked against pattern(seed)[roff, roff+len) -> "WC ... <crc32> match|MISMATCH"
 *   FADD roff add expect         FETCH_AND_ADD, the original checked          -> "WC ... - <orig> match|MISMATCH"
 *   CSWP roff cmp swap expect    CMP_AND_SWP, the original checked            -> same
 *   SENDINV len seed rkey        SEND_WITH_INV of pattern(seed) invalidating the host's rkey -> like SEND
 *   WRITEK rkey addr len seed st RDMA WRITE of pattern(seed) to an absolute addr with an explicit rkey (e.g. the
 *                                host's memory window), expecting completion status st (hex: 0 success; an expected
 *                                error such as a REM_ACCESS_ERR, a, is then no failure) -> "WC <status> <opcode> <byte_len> - <crc32>"
 *   READK rkey addr len seed st  RDMA READ likewise, checked against pattern(seed)[0, len) when st is 0
 *                                -> "WC <status> <opcode> <byte_len> - <crc32> match|MISMATCH"
 *   QUIT                         -> "BYE <failures(dec)>", then exit
 * <status>/<opcode> are libibverbs' ibv_wc_status/ibv_wc_opcode numbers (decimal); immediates are
 * host-order values (htonl on the wire); crc32 is zlib's (java.util.zip.CRC32). Atomic values are
 * u64 in native order in memory. Exit status 0 only if every completion succeeded, every check
 * matched and the protocol ended with QUIT.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <infiniband/verbs.h>
#include <netdb.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static struct ibv_context *ctx;
static struct ibv_pd *pd;
static struct ibv_cq *scq, *rcq;
static struct ibv_qp *qp;
static struct ibv_mr *mr, *lmr;
static struct ibv_mw *mw;      /* the type 2 window of MWBIND, allocated on first use */
static uint32_t mw_rkey;       /* its current rkey (libibverbs does not update mw->rkey for IBV_WR_BIND_MW) */
static enum ibv_wc_status expect_status = IBV_WC_SUCCESS; /* what the next send completion should be */
static uint8_t *buf, *lbuf;
static size_t buf_len = 131072;
static uint64_t raddr;
static uint32_t rkey;
static size_t rlen;
static size_t recv_off; /* next receive slot in the local buffer */
static int failures;
static FILE *in, *out;

static void die(const char *what)
{
	fprintf(stderr, "rc_ops_peer: %s: %s\n", what, strerror(errno));
	exit(2);
}

static uint8_t pat(unsigned seed, size_t i)
{
	return (uint8_t)(seed + 7 * i + (i >> 8));
}

static uint32_t crc32(const uint8_t *p, size_t n)
{
	uint32_t c = 0xffffffff;
	while (n--) {
		c ^= *p++;
		for (int k = 0; k < 8; k++)
			c = (c >> 1) ^ (0xedb88320 & -(c & 1));
	}
	return ~c;
}

static void reply(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void reply(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vfprintf(out, fmt, ap);
	va_end(ap);
	fputc('\n', out);
	fflush(out);
	va_start(ap, fmt);
	printf("rc_ops_peer: -> ");
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
}

static int poll_one(struct ibv_cq *cq, struct ibv_wc *wc)
{
	time_t end = time(NULL) + 60;
	for (;;) {
		int n = ibv_poll_cq(cq, 1, wc);
		if (n < 0)
			die("ibv_poll_cq");
		if (n == 1) {
			if (wc->status != (cq == scq ? expect_status : IBV_WC_SUCCESS))
				failures++;
			return 1;
		}
		if (time(NULL) > end)
			return 0;
		usleep(100);
	}
}

static int tcp_connect(const char *host, const char *port)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM }, *res, *a;
	int rc = getaddrinfo(host, port, &hints, &res);
	if (rc) {
		fprintf(stderr, "rc_ops_peer: %s: %s\n", host, gai_strerror(rc));
		exit(2);
	}
	for (int attempt = 0; attempt < 120; attempt++) {
		for (a = res; a; a = a->ai_next) {
			int fd = socket(a->ai_family, a->ai_socktype, a->ai_protocol);
			if (fd >= 0 && connect(fd, a->ai_addr, a->ai_addrlen) == 0) {
				freeaddrinfo(res);
				return fd;
			}
			if (fd >= 0)
				close(fd);
		}
		sleep(1);
	}
	die("cannot connect to the host");
	return -1;
}

/* Posts one send-queue work request and waits for its completion. */
static void post_and_wait(struct ibv_send_wr *wr, struct ibv_wc *wc)
{
	struct ibv_send_wr *bad;
	wr->send_flags |= IBV_SEND_SIGNALED;
	if (ibv_post_send(qp, wr, &bad))
		die("ibv_post_send");
	if (!poll_one(scq, wc)) {
		failures++;
		memset(wc, 0, sizeof(*wc));
		wc->status = IBV_WC_GENERAL_ERR;
	}
}

static void command(char *line)
{
	char op[16];
	unsigned long long a = 0, b = 0, c = 0, d = 0;
	int n = sscanf(line, "%15s %llx %llx %llx %llx", op, &a, &b, &c, &d);
	struct ibv_sge sge = { .addr = (uintptr_t)lbuf, .lkey = lmr->lkey };
	struct ibv_send_wr wr = { .sg_list = &sge, .num_sge = 1 };
	struct ibv_wc wc;

	if (n >= 1 && (!strcmp(op, "WRITEK") || !strcmp(op, "READK"))) {
		unsigned long long e;
		if (sscanf(line, "%*s %llx %llx %llx %llx %llx", &a, &b, &c, &d, &e) == 5 && c <= buf_len) {
			int write = op[0] == 'W';
			if (write)
				for (size_t i = 0; i < c; i++)
					lbuf[i] = pat((unsigned)d, i);
			else
				memset(lbuf, 0xee, c);
			sge.length = (uint32_t)c;
			wr.opcode = write ? IBV_WR_RDMA_WRITE : IBV_WR_RDMA_READ;
			wr.wr.rdma.remote_addr = b;
			wr.wr.rdma.rkey = (uint32_t)a;
			expect_status = (enum ibv_wc_status)e;
			post_and_wait(&wr, &wc);
			expect_status = IBV_WC_SUCCESS;
			if (write) {
				reply("WC %d %d %u - %08x", wc.status, wc.opcode, wc.byte_len, crc32(lbuf, c));
				return;
			}
			int ok = wc.status == (enum ibv_wc_status)e;
			for (size_t i = 0; ok && e == 0 && i < c; i++)
				ok = lbuf[i] == pat((unsigned)d, i);
			if (!ok)
				failures++;
			reply("WC %d %d %u - %08x %s", wc.status, wc.opcode, wc.byte_len, crc32(lbuf, c),
			      ok ? "match" : "MISMATCH");
			return;
		}
	}
	if (n < 1) {
		reply("ERR empty");
		failures++;
	} else if (!strcmp(op, "FILL") && n == 2) {
		for (size_t i = 0; i < buf_len; i++)
			buf[i] = pat((unsigned)a, i);
		reply("OK");
	} else if (!strcmp(op, "SET64") && n == 3 && a + 8 <= buf_len && a % 8 == 0) {
		uint64_t v = b;
		memcpy(buf + a, &v, 8);
		reply("OK");
	} else if (!strcmp(op, "MEM") && n == 3 && a + b <= buf_len) {
		char hex[33] = "";
		for (size_t i = 0; i < b && i < 16; i++)
			sprintf(hex + 2 * i, "%02x", buf[a + i]);
		reply("MEM %08x %s", crc32(buf + a, b), b ? hex : "-");
	} else if (!strcmp(op, "RECV") && n == 2 && a <= buf_len) {
		struct ibv_recv_wr rwr = { .sg_list = &sge, .num_sge = 1 }, *bad;
		if (recv_off + a > buf_len)
			recv_off = 0;
		sge.addr = (uintptr_t)(lbuf + recv_off);
		sge.length = (uint32_t)a;
		rwr.wr_id = recv_off;
		recv_off += (a + 63) & ~63ULL;
		if (ibv_post_recv(qp, &rwr, &bad))
			die("ibv_post_recv");
		reply("OK");
	} else if (!strcmp(op, "WAITRECV") && n == 1) {
		if (!poll_one(rcq, &wc)) {
			failures++;
			reply("WC timeout");
			return;
		}
		char imm[12] = "-";
		if (wc.wc_flags & IBV_WC_WITH_IMM)
			sprintf(imm, "%x", ntohl(wc.imm_data));
		uint32_t crc = wc.status == IBV_WC_SUCCESS && wc.opcode == IBV_WC_RECV
			? crc32(lbuf + wc.wr_id, wc.byte_len) : 0;
		/* rxe (Linux 6.1) writes the kernel's IB_WC_WITH_INVALIDATE (1 << 2) into user CQEs, which
		 * libibverbs reads as IBV_WC_IP_CSUM_OK; IBV_WC_WITH_INV is 1 << 3. An RC receive has no IP
		 * checksum offload, so either bit means "with invalidate" here; the raw flags follow. */
		char inv[12] = "-";
		if (wc.wc_flags & (IBV_WC_WITH_INV | IBV_WC_IP_CSUM_OK))
			sprintf(inv, "%x", wc.invalidated_rkey);
		reply("WC %d %d %u %s %08x %s %x", wc.status, wc.opcode, wc.byte_len, imm, crc, inv, wc.wc_flags);
	} else if ((!strcmp(op, "SEND") && (n == 3 || n == 4) && a <= buf_len)
		   || (!strcmp(op, "WRITE") && (n == 4 || n == 5) && b <= buf_len)) {
		int send = op[0] == 'S';
		size_t len = send ? a : b;
		unsigned seed = (unsigned)(send ? b : c);
		int has_imm = n == (send ? 4 : 5);
		for (size_t i = 0; i < len; i++)
			lbuf[i] = pat(seed, i);
		sge.length = (uint32_t)len;
		if (send) {
			wr.opcode = has_imm ? IBV_WR_SEND_WITH_IMM : IBV_WR_SEND;
		} else {
			wr.opcode = has_imm ? IBV_WR_RDMA_WRITE_WITH_IMM : IBV_WR_RDMA_WRITE;
			wr.wr.rdma.remote_addr = raddr + a;
			wr.wr.rdma.rkey = rkey;
		}
		if (has_imm)
			wr.imm_data = htonl((uint32_t)(send ? c : d));
		post_and_wait(&wr, &wc);
		reply("WC %d %d %u - %08x", wc.status, wc.opcode, wc.byte_len, crc32(lbuf, len));
	} else if (!strcmp(op, "MWBIND") && n == 4 && a + b <= buf_len) {
		if (!mw && !(mw = ibv_alloc_mw(pd, IBV_MW_TYPE_2)))
			die("ibv_alloc_mw");
		if (!mw_rkey)
			mw_rkey = mw->rkey;
		uint32_t nk = ibv_inc_rkey(mw_rkey);
		struct ibv_send_wr bwr = { .opcode = IBV_WR_BIND_MW };
		bwr.bind_mw.mw = mw;
		bwr.bind_mw.rkey = nk;
		bwr.bind_mw.bind_info.mr = mr;
		bwr.bind_mw.bind_info.addr = (uintptr_t)(buf + a);
		bwr.bind_mw.bind_info.length = b;
		bwr.bind_mw.bind_info.mw_access_flags = (unsigned)c;
		post_and_wait(&bwr, &wc);
		if (wc.status == IBV_WC_SUCCESS)
			mw_rkey = nk;
		reply("MW %d %x %llx", wc.status, nk, (unsigned long long)(uintptr_t)(buf + a));
	} else if (!strcmp(op, "SENDINV") && n == 4 && a <= buf_len) {
		for (size_t i = 0; i < a; i++)
			lbuf[i] = pat((unsigned)b, i);
		sge.length = (uint32_t)a;
		wr.opcode = IBV_WR_SEND_WITH_INV;
		wr.invalidate_rkey = (uint32_t)c;
		post_and_wait(&wr, &wc);
		reply("WC %d %d %u - %08x", wc.status, wc.opcode, wc.byte_len, crc32(lbuf, a));
	} else if (!strcmp(op, "READ") && n == 4 && b <= buf_len) {
		memset(lbuf, 0xee, b);
		sge.length = (uint32_t)b;
		wr.opcode = IBV_WR_RDMA_READ;
		wr.wr.rdma.remote_addr = raddr + a;
		wr.wr.rdma.rkey = rkey;
		post_and_wait(&wr, &wc);
		int ok = wc.status == IBV_WC_SUCCESS;
		for (size_t i = 0; ok && i < b; i++)
			ok = lbuf[i] == pat((unsigned)c, a + i);
		if (!ok)
			failures++;
		reply("WC %d %d %u - %08x %s", wc.status, wc.opcode, wc.byte_len, crc32(lbuf, b),
		      ok ? "match" : "MISMATCH");
	} else if ((!strcmp(op, "FADD") && n == 4) || (!strcmp(op, "CSWP") && n == 5)) {
		int fadd = op[0] == 'F';
		uint64_t orig;
		memset(lbuf, 0xee, 8);
		sge.length = 8;
		wr.opcode = fadd ? IBV_WR_ATOMIC_FETCH_AND_ADD : IBV_WR_ATOMIC_CMP_AND_SWP;
		wr.wr.atomic.remote_addr = raddr + a;
		wr.wr.atomic.rkey = rkey;
		wr.wr.atomic.compare_add = b;
		wr.wr.atomic.swap = fadd ? 0 : c;
		post_and_wait(&wr, &wc);
		memcpy(&orig, lbuf, 8);
		int ok = wc.status == IBV_WC_SUCCESS && orig == (fadd ? c : d);
		if (!ok)
			failures++;
		reply("WC %d %d %u - %llx %s", wc.status, wc.opcode, wc.byte_len,
		      (unsigned long long)orig, ok ? "match" : "MISMATCH");
	} else {
		reply("ERR bad command: %s", line);
		failures++;
	}
}

int main(int argc, char **argv)
{
	const char *port = "18516";
	int gidx = 1, mtu = 1024, opt;
	while ((opt = getopt(argc, argv, "p:g:m:s:")) != -1) {
		switch (opt) {
		case 'p': port = optarg; break;
		case 'g': gidx = atoi(optarg); break;
		case 'm': mtu = atoi(optarg); break;
		case 's': buf_len = strtoul(optarg, NULL, 0); break;
		default: goto usage;
		}
	}
	if (optind != argc - 1) {
usage:
		fprintf(stderr, "usage: rc_ops_peer [-p port] [-g gid_index] [-m mtu] [-s buf_bytes] host\n");
		return 2;
	}
	enum ibv_mtu path_mtu = mtu == 256 ? IBV_MTU_256 : mtu == 512 ? IBV_MTU_512 : mtu == 2048 ? IBV_MTU_2048
		: mtu == 4096 ? IBV_MTU_4096 : IBV_MTU_1024;

	struct ibv_device **list = ibv_get_device_list(NULL);
	if (!list || !list[0])
		die("no RDMA device");
	if (!(ctx = ibv_open_device(list[0])) || !(pd = ibv_alloc_pd(ctx)))
		die("ibv_open_device/ibv_alloc_pd");
	if (posix_memalign((void **)&buf, 4096, buf_len) || posix_memalign((void **)&lbuf, 4096, buf_len))
		die("posix_memalign");
	for (size_t i = 0; i < buf_len; i++)
		buf[i] = pat(0, i);
	memset(lbuf, 0, buf_len);
	int access = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_WRITE
		| IBV_ACCESS_REMOTE_ATOMIC;
	if (!(mr = ibv_reg_mr(pd, buf, buf_len, access | IBV_ACCESS_MW_BIND)) || !(lmr = ibv_reg_mr(pd, lbuf, buf_len, access)))
		die("ibv_reg_mr");
	if (!(scq = ibv_create_cq(ctx, 64, NULL, NULL, 0)) || !(rcq = ibv_create_cq(ctx, 64, NULL, NULL, 0)))
		die("ibv_create_cq");
	struct ibv_qp_init_attr qia = {
		.send_cq = scq, .recv_cq = rcq, .qp_type = IBV_QPT_RC,
		.cap = { .max_send_wr = 16, .max_recv_wr = 16, .max_send_sge = 1, .max_recv_sge = 1 },
	};
	if (!(qp = ibv_create_qp(pd, &qia)))
		die("ibv_create_qp");
	struct ibv_qp_attr attr = {
		.qp_state = IBV_QPS_INIT, .pkey_index = 0, .port_num = 1,
		.qp_access_flags = IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_ATOMIC,
	};
	if (ibv_modify_qp(qp, &attr, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_ACCESS_FLAGS))
		die("modify to INIT");
	union ibv_gid gid;
	if (ibv_query_gid(ctx, 1, gidx, &gid))
		die("ibv_query_gid");
	srand48(getpid() * time(NULL));
	uint32_t psn = lrand48() & 0xffffff;

	int fd = tcp_connect(argv[optind], port);
	in = fdopen(fd, "r");
	out = fdopen(dup(fd), "w");
	if (!in || !out)
		die("fdopen");
	char hex[33], line[256];
	for (int i = 0; i < 16; i++)
		sprintf(hex + 2 * i, "%02x", gid.raw[i]);
	reply("QP %x %x %s %x %llx %zx", qp->qp_num, psn, hex, mr->rkey, (unsigned long long)(uintptr_t)buf, buf_len);

	unsigned rqpn, rpsn;
	unsigned long long ra, rl;
	char rgid[33];
	if (!fgets(line, sizeof(line), in)
	    || sscanf(line, "QP %x %x %32s %x %llx %llx", &rqpn, &rpsn, rgid, &rkey, &ra, &rl) != 6
	    || strlen(rgid) != 32) {
		fprintf(stderr, "rc_ops_peer: bad QP line from the host: %s\n", line);
		return 2;
	}
	raddr = ra;
	rlen = rl;
	printf("rc_ops_peer: <- %s", line);
	memset(&attr, 0, sizeof(attr));
	attr.qp_state = IBV_QPS_RTR;
	attr.path_mtu = path_mtu;
	attr.dest_qp_num = rqpn;
	attr.rq_psn = rpsn;
	attr.max_dest_rd_atomic = 16;
	attr.min_rnr_timer = 12;
	attr.ah_attr.is_global = 1;
	attr.ah_attr.grh.hop_limit = 64;
	attr.ah_attr.grh.sgid_index = gidx;
	attr.ah_attr.port_num = 1;
	for (int i = 0; i < 16; i++)
		sscanf(rgid + 2 * i, "%2hhx", &attr.ah_attr.grh.dgid.raw[i]);
	if (ibv_modify_qp(qp, &attr, IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN
			  | IBV_QP_RQ_PSN | IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER))
		die("modify to RTR");
	memset(&attr, 0, sizeof(attr));
	attr.qp_state = IBV_QPS_RTS;
	attr.timeout = 14;
	attr.retry_cnt = 7;
	attr.rnr_retry = 7;
	attr.sq_psn = psn;
	attr.max_rd_atomic = 16;
	if (ibv_modify_qp(qp, &attr, IBV_QP_STATE | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY
			  | IBV_QP_SQ_PSN | IBV_QP_MAX_QP_RD_ATOMIC))
		die("modify to RTS");
	printf("rc_ops_peer: connected, local qpn %x psn %x, remote qpn %x psn %x\n", qp->qp_num, psn, rqpn, rpsn);
	fflush(stdout);

	while (fgets(line, sizeof(line), in)) {
		line[strcspn(line, "\r\n")] = 0;
		printf("rc_ops_peer: <- %s\n", line);
		if (!strcmp(line, "QUIT")) {
			reply("BYE %d", failures);
			printf("rc_ops_peer: %d failures\n", failures);
			return failures ? 1 : 0;
		}
		command(line);
	}
	fprintf(stderr, "rc_ops_peer: the host closed the connection before QUIT\n");
	return 1;
}

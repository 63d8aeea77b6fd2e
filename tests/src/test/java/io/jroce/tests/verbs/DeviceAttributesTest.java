package io.jroce.tests.verbs;

import io.jroce.stack.stats.Counter;
import io.jroce.tests.support.Node;
import io.jroce.verbs.DeviceAttributes;
import io.jroce.verbs.Gid;
import io.jroce.verbs.Mtu;
import io.jroce.verbs.PortAttributes;
import io.jroce.verbs.RdmaDevice;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** ibv_query_device, ibv_query_port, ibv_query_gid and the counters of a freshly opened device. */
class DeviceAttributesTest {
    private static final Gid LOOPBACK_V4 = Gid.parse("127.0.0.1");

    @Test
    void defaultsOfTheBuilder() {
        RdmaDevice d = Node.openDevice(null, "127.0.0.1", null, null).device();
        try {
            assertEquals("jroce0", d.name(), "default name");
            assertEquals(Mtu.MTU_4096, d.queryPort().activeMtu(), "default active MTU");
        } finally {
            d.close();
        }
    }

    @ParameterizedTest(name = "active MTU {0}")
    @EnumSource(value = Mtu.class, names = {"MTU_1024", "MTU_4096"})
    void portAttributesAreSane(Mtu mtu) {
        RdmaDevice d = Node.openDevice("jroceattr", "127.0.0.1", mtu, null).device();
        try {
            PortAttributes p = d.queryPort();
            assertEquals(mtu, p.activeMtu(), "active MTU is the builder's");
            assertTrue(p.maxMtu().bytes() >= p.activeMtu().bytes(), "max MTU " + p.maxMtu() + " >= active " + p.activeMtu());
            assertEquals("PORT_ACTIVE", p.state());
            assertEquals("Ethernet", p.linkLayer());
            assertEquals(0, p.lid(), "RoCE has no LID");
            assertTrue(p.gidTableLength() >= d.gids().size(), "gid_tbl_len " + p.gidTableLength() + " holds " + d.gids());
            assertTrue(p.pkeyTableLength() >= 1, "pkey_tbl_len");
            assertTrue(p.maxMessageSize() >= 1 << 20, "max_msg_sz " + p.maxMessageSize() + " allows the 1 MiB tests");
            assertEquals("jroceattr", d.name());
        } finally {
            d.close();
        }
    }

    @Test
    void gidTableHoldsTheIpv4MappedGidOfTheAddress() {
        RdmaDevice d = Node.openDevice("jrocegid", "127.0.0.1", null, null).device();
        try {
            List<Gid> gids = d.gids();
            assertTrue(gids.contains(LOOPBACK_V4), "GID table " + gids + " holds ::ffff:127.0.0.1");
            assertTrue(LOOPBACK_V4.isIpv4Mapped());
            assertEquals("0000:0000:0000:0000:0000:ffff:7f00:0001", LOOPBACK_V4.toString());
        } finally {
            d.close();
        }
    }

    @Test
    void everyAddressOfTheBuilderIsAGid() {
        RdmaDevice d = Node.openDevice("jroce2a", "127.0.0.1", null, "::1").device();
        try {
            List<Gid> gids = d.gids();
            assertTrue(gids.contains(LOOPBACK_V4), "GID table " + gids + " holds ::ffff:127.0.0.1");
            assertTrue(gids.contains(Gid.parse("::1")), "GID table " + gids + " holds ::1");
            assertTrue(d.queryPort().gidTableLength() >= 2);
        } finally {
            d.close();
        }
    }

    @Test
    void deviceAttributesAreSane() {
        RdmaDevice d = Node.openDevice("jrocedev", "127.0.0.1", null, null).device();
        try {
            DeviceAttributes a = d.queryDevice();
            assertEquals(1, a.physPortCount(), "phys_port_cnt");
            assertNotNull(a.firmwareVersion(), "fw_ver");
            assertNotEquals(0L, a.nodeGuid(), "node_guid");
            assertNotNull(a.atomicCapability(), "atomic_cap");
            assertTrue(a.maxQp() >= 2, "max_qp " + a.maxQp());
            assertTrue(a.maxQpWr() >= 256, "max_qp_wr " + a.maxQpWr());
            assertTrue(a.maxSge() >= 4, "max_sge " + a.maxSge());
            assertTrue(a.maxCq() >= 4, "max_cq " + a.maxCq());
            assertTrue(a.maxCqe() >= 1024, "max_cqe " + a.maxCqe());
            assertTrue(a.maxMr() >= 4, "max_mr " + a.maxMr());
            assertTrue(a.maxPd() >= 2, "max_pd " + a.maxPd());
            assertTrue(a.maxMrSize() >= 4L << 20, "max_mr_size " + a.maxMrSize());
            assertTrue(a.maxQpRdAtom() >= 1, "max_qp_rd_atom " + a.maxQpRdAtom());
            assertTrue(a.maxQpInitRdAtom() >= 1, "max_qp_init_rd_atom " + a.maxQpInitRdAtom());
            assertTrue(a.maxInlineData() >= 0, "max_inline_data");
            assertTrue((a.pageSizeCap() & 4096) != 0, "page_size_cap 0x" + Long.toHexString(a.pageSizeCap()) + " has 4 KiB");
        } finally {
            d.close();
        }
    }

    @Test
    void everyCounterIsReportedAndStartsAtZero() {
        RdmaDevice d = Node.openDevice("jrocecnt", "127.0.0.1", null, null).device();
        try {
            Map<String, Long> counters = d.counters();
            for (Counter c : Counter.values()) {
                assertEquals(0L, counters.get(c.counterName()), "counter " + c.counterName() + " of a fresh device");
            }
        } finally {
            d.close();
        }
    }
}

package io.jroce.rnic.cm;

/**
 * The CM's timer values, as the kernel derives them (cm.c, cma.c). IBA times are exponents: 4.096 us
 * times 2 to the power of the value (IBTA 12.6.5); the kernel approximates them in milliseconds
 * with {@code cm_convert_to_ms}, which this class repeats so that timers expire when the kernel's do.
 */
public final class CmTimeouts {
    /** Both CM response timeouts of a REQ the CMA sends ({@code CMA_CM_RESPONSE_TIMEOUT}): about 4 s. */
    public static final int CM_RESPONSE_TIMEOUT = 20;
    /** The REQ's max CM retries the CMA sets ({@code CMA_MAX_CM_RETRIES}). */
    public static final int MAX_CM_RETRIES = 15;
    /** The packet life time of a RoCE path without an SA ({@code cma_resolve_iboe_route}, Linux 6.1). */
    public static final int PACKET_LIFE_TIME = 18;
    /** The REQ's local ACK timeout: packet life time + 1 ({@code cm_format_req} / the path's ACK timeout). */
    public static final int LOCAL_ACK_TIMEOUT = PACKET_LIFE_TIME + 1;
    /** The service timeout of the MRA the CMA arms after a REQ or REP ({@code CMA_CM_MRA_SETTING}): about 67 s. */
    public static final int MRA_SERVICE_TIMEOUT = 24;

    private CmTimeouts() {
    }

    /**
     * {@code cm_ack_timeout}: the local ACK timeout of a path of packet life time
     * {@code packetLifeTime} from a CA of ACK delay {@code caAckDelay} (about twice the packet life
     * time plus the ACK delay, IBTA 12.7.34), at most 31. 19 for the RoCE path and rxe's delay 15.
     *
     * @param caAckDelay the CA's ACK delay, as an IBA time exponent
     * @param packetLifeTime the path's packet life time, as an IBA time exponent
     * @return the local ACK timeout exponent, 0..31
     */
    public static int ackTimeout(int caAckDelay, int packetLifeTime) {
        int ackTimeout = packetLifeTime + 1;
        if (ackTimeout >= caAckDelay) {
            ackTimeout += caAckDelay >= ackTimeout - 1 ? 1 : 0;
        } else {
            ackTimeout = caAckDelay + (ackTimeout >= caAckDelay - 1 ? 1 : 0);
        }
        return Math.min(31, ackTimeout);
    }

    /**
     * {@code cm_convert_to_ms}: 2 to the power of max(t - 8, 0) milliseconds.
     *
     * @param ibaTime an IBA time exponent (4.096 us times 2 to its power)
     * @return the time in milliseconds, rounded as the kernel rounds it
     */
    public static long convertToMs(int ibaTime) {
        return 1L << Math.max(ibaTime - 8, 0);
    }

    /**
     * The active side's REQ retransmission interval ({@code ib_send_cm_req}): twice the packet life
     * time plus the remote CM response timeout; 2 * 1024 + 4096 = 6144 ms with the CMA's values.
     *
     * @param packetLifeTime the path's packet life time, as an IBA time exponent
     * @param remoteCmResponseTimeout the peer's CM response timeout, as an IBA time exponent
     * @return the interval in milliseconds
     */
    public static long reqIntervalMs(int packetLifeTime, int remoteCmResponseTimeout) {
        return 2 * convertToMs(packetLifeTime) + convertToMs(remoteCmResponseTimeout);
    }

    /**
     * The SIDR_REQ's retransmission interval: the CMA sets it to its CM response timeout alone
     * ({@code cma_resolve_ib_udp}: {@code 1 << (CMA_CM_RESPONSE_TIMEOUT - 8)}), 4096 ms, with
     * {@link #MAX_CM_RETRIES} retries.
     *
     * @return the interval in milliseconds
     */
    public static long sidrIntervalMs() {
        return convertToMs(CM_RESPONSE_TIMEOUT);
    }

    /**
     * How long TimeWait lasts ({@code cm_enter_timewait}): the address vector's timeout, the packet
     * life time + 1, converted: 2048 ms on RoCE.
     *
     * @param packetLifeTime the path's packet life time, as an IBA time exponent
     * @return TimeWait's length in milliseconds
     */
    public static long timeWaitMs(int packetLifeTime) {
        return convertToMs(packetLifeTime + 1);
    }

    /**
     * The wait an MRA asks for ({@code cm_mra_handler}): its service timeout plus the path's timeout
     * (packet life time + 1), converted: 65536 + 2048 ms for the CMA's MRA.
     *
     * @param serviceTimeout the MRA's service timeout, as an IBA time exponent
     * @param packetLifeTime the path's packet life time, as an IBA time exponent
     * @return the wait in milliseconds
     */
    public static long mraWaitMs(int serviceTimeout, int packetLifeTime) {
        return convertToMs(serviceTimeout) + convertToMs(packetLifeTime + 1);
    }
}

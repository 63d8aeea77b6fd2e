package io.jroce.rnic.cq;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * What a completion queue is armed for (Request Completion Notification, IBTA Vol. 1 11.4.2.2):
 * nothing, solicited completions only, or any completion. The next completion that matches disarms
 * it and fires once; the queue must be re-armed for the next. Application threads arm, the
 * producer fires; both change the state by CAS, so an arming that races a completion is either
 * consumed by it or left for the next one, never lost halfway.
 */
public final class CompletionArming {
    private static final int NONE = 0;
    private static final int SOLICITED = 1;
    private static final int ALL = 2;
    private static final VarHandle STATE;

    static {
        try {
            STATE = MethodHandles.lookup().findVarHandle(CompletionArming.class, "state", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** NONE, SOLICITED or ALL; changed by CAS. */
    private volatile int state = NONE;

    /**
     * Arms for the next solicited completion ({@code solicitedOnly}) or the next completion of any
     * kind. Arming for any completion stays so when solicited-only is asked next, as rxe keeps it.
     *
     * @param solicitedOnly arm for a solicited (or unsuccessful) completion only
     */
    public void arm(boolean solicitedOnly) {
        int wanted = solicitedOnly ? SOLICITED : ALL;
        int current;
        do {
            current = state;
        } while (current < wanted && !STATE.compareAndSet(this, current, wanted));
    }

    /**
     * A completion was published: true when it matches what the queue is armed for, which disarms
     * it (the caller then posts one event). Armed for solicited completions only, a solicited or an
     * unsuccessful completion matches (IBTA 11.4.2.2). Producer only.
     *
     * @param solicited whether the completion's message had the solicited-event bit
     * @param successful whether its status is SUCCESS
     * @return true when an event is due
     */
    public boolean fire(boolean solicited, boolean successful) {
        int armed;
        // Retried when an application thread re-arms at the same moment (solicited -> all).
        while ((armed = state) == ALL || armed == SOLICITED && (solicited || !successful)) {
            if (STATE.compareAndSet(this, armed, NONE)) {
                return true;
            }
        }
        return false;
    }

    /**
     * True while armed for anything.
     *
     * @return whether armed
     */
    public boolean armed() {
        return state != NONE;
    }
}

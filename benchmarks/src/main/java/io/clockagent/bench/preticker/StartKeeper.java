package io.clockagent.bench.preticker;

import io.clockagent.bench.preticker.rewritten.StartMarker;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/**
 * Keeps the agent's native start waiting: it loads the Java side (and so the ticker) only once no class in scope has
 * loaded for a while, up to a limit of seconds, and this thread defines {@link StartMarker} anew every
 * {@link #PERIOD_MILLIS}, as a service that is still starting loads classes. Without it a flat-out reader starts the
 * ticker about a second in, and its reads from then on would measure the ticker's start, not a read before it. Runs in
 * every variant, with no agent too, so that each pays the same for it. A daemon thread of its own.
 */
final class StartKeeper extends Thread {

    /** Well inside the quiet period after which the agent's start gives up waiting for class loading to settle. */
    static final long PERIOD_MILLIS = 20;

    private final byte[] markerBytes;

    StartKeeper() {
        super("start-keeper");
        setDaemon(true);
        String resource = StartMarker.class.getSimpleName() + ".class";
        try (InputStream in = StartMarker.class.getResourceAsStream(resource)) {
            markerBytes = in.readAllBytes();
        } catch (IOException unreadable) {
            throw new UncheckedIOException(unreadable);
        }
    }

    @Override
    public void run() {
        while (true) {
            new MarkerLoader().define(markerBytes);
            try {
                Thread.sleep(PERIOD_MILLIS);
            } catch (InterruptedException interrupted) {
                return;
            }
        }
    }

    /** A class loader for one definition of the marker, which goes with it. */
    private static final class MarkerLoader extends ClassLoader {

        MarkerLoader() {
            super(null);
        }

        void define(byte[] bytes) {
            defineClass(StartMarker.class.getName(), bytes, 0, bytes.length);
        }
    }
}

package io.clockagent.demo.load;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class RequestMixTest {

    @Test
    void theSameSeedAndConnectionGiveTheSameRequests() {
        RequestMix first = new RequestMix(42, 3, 32, 16);
        RequestMix second = new RequestMix(42, 3, 32, 16);

        for (int i = 0; i < 100; i++) {
            assertArrayEquals(first.next(), second.next());
        }
    }

    @Test
    void connectionsSendDifferentRequestsFromTheirOwnSessions() {
        byte[] zero = new RequestMix(42, 0, 32, 16).next();
        byte[] one = new RequestMix(42, 1, 32, 16).next();

        assertFalse(Arrays.equals(zero, one));
        assertTrue(new String(zero, StandardCharsets.US_ASCII).contains("Cookie: session=s0-"));
        assertTrue(new String(one, StandardCharsets.US_ASCII).contains("Cookie: session=s1-"));
    }

    @Test
    void requestsAreKeepAliveGetsOfAQuote() {
        String request = new String(new RequestMix(1, 0, 1, 1).next(), StandardCharsets.US_ASCII);

        assertTrue(request.matches("GET /quote\\?items=\\d+x\\d(,\\d+x\\d)* HTTP/1\\.1\r\nHost: 127\\.0\\.0\\.1\r\n"
                + "X-Client: c0\r\nCookie: session=s0-0\r\n\r\n"), request);
    }
}

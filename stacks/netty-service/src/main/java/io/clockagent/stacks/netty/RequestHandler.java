package io.clockagent.stacks.netty;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.QueryStringDecoder;
import io.netty.handler.timeout.IdleStateEvent;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * {@code GET /echo?text=T} answers T; {@code GET /delay?millis=N} answers after N ms, or with 504 at the deadline.
 * Each answer carries the wall-clock time it was made at, as services stamp theirs. Closes the connection when the
 * idle handler says it has been idle.
 */
final class RequestHandler extends SimpleChannelInboundHandler<FullHttpRequest> {

    static final long DEADLINE_MILLIS = 250;

    private final ServiceCounts counts;

    RequestHandler(ServiceCounts counts) {
        this.counts = counts;
    }

    @Override
    protected void channelRead0(ChannelHandlerContext context, FullHttpRequest request) {
        counts.requests.incrementAndGet();
        long receivedMillis = System.currentTimeMillis();
        boolean keepAlive = HttpUtil.isKeepAlive(request);
        QueryStringDecoder uri = new QueryStringDecoder(request.uri());
        switch (uri.path()) {
            case "/echo":
                respond(context, keepAlive, HttpResponseStatus.OK, parameter(uri, "text"), receivedMillis);
                break;
            case "/delay":
                long millis = Long.parseLong(parameter(uri, "millis"));
                // Whichever runs first answers; both run on this channel's event loop, so never at once.
                ScheduledFuture<?> deadline = context.executor().schedule(() -> {
                    counts.timedOut.incrementAndGet();
                    respond(context, false, HttpResponseStatus.GATEWAY_TIMEOUT, "deadline", receivedMillis);
                }, DEADLINE_MILLIS, TimeUnit.MILLISECONDS);
                context.executor().schedule(() -> {
                    if (deadline.cancel(false)) {
                        respond(context, keepAlive, HttpResponseStatus.OK, "slept " + millis, receivedMillis);
                    }
                }, millis, TimeUnit.MILLISECONDS);
                break;
            default:
                respond(context, keepAlive, HttpResponseStatus.NOT_FOUND, "no such path", receivedMillis);
                break;
        }
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext context, Object event) throws Exception {
        if (event instanceof IdleStateEvent) {
            counts.idleClosed.incrementAndGet();
            context.close();
        } else {
            super.userEventTriggered(context, event);
        }
    }

    private static String parameter(QueryStringDecoder uri, String name) {
        List<String> values = uri.parameters().get(name);
        return values == null || values.isEmpty() ? "" : values.get(0);
    }

    private static void respond(ChannelHandlerContext context, boolean keepAlive, HttpResponseStatus status,
            String body, long receivedMillis) {
        FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status,
                Unpooled.copiedBuffer(body, StandardCharsets.UTF_8));
        response.headers()
                .set(HttpHeaderNames.CONTENT_TYPE, "text/plain; charset=UTF-8")
                .setInt(HttpHeaderNames.CONTENT_LENGTH, response.content().readableBytes())
                .set("X-Received-Millis", receivedMillis)
                .set("X-Answered-Millis", System.currentTimeMillis());
        if (keepAlive) {
            response.headers().set(HttpHeaderNames.CONNECTION, "keep-alive");
            context.writeAndFlush(response);
        } else {
            context.writeAndFlush(response).addListener(ChannelFutureListener.CLOSE);
        }
    }
}

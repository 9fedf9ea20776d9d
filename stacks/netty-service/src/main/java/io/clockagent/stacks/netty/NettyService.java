package io.clockagent.stacks.netty;

import io.clockagent.stacks.console.StackConsole;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.clockprobe.LibraryClock;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.timeout.IdleStateHandler;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;

/**
 * An HTTP service on Netty ({@link RequestHandler}) that closes connections idle for {@value #IDLE_MILLIS} ms and
 * answers {@code /delay} requests that would take longer than {@value RequestHandler#DEADLINE_MILLIS} ms with 504.
 * Listens on 127.0.0.1, on a free port it prints as {@code listening PORT}, and takes {@link StackConsole}'s
 * commands on stdin.
 */
public final class NettyService {

    static final long IDLE_MILLIS = 300;
    private static final int MAX_REQUEST_BYTES = 64 * 1024;

    private NettyService() {
    }

    public static void main(String[] args) throws Exception {
        ServiceCounts counts = new ServiceCounts();
        EventLoopGroup acceptor = new NioEventLoopGroup(1);
        EventLoopGroup workers = new NioEventLoopGroup(2);
        Channel server = new ServerBootstrap()
                .group(acceptor, workers)
                .channel(NioServerSocketChannel.class)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel channel) {
                        channel.pipeline()
                                .addLast(new IdleStateHandler(0, 0, IDLE_MILLIS, TimeUnit.MILLISECONDS))
                                .addLast(new HttpServerCodec())
                                .addLast(new HttpObjectAggregator(MAX_REQUEST_BYTES))
                                .addLast(new RequestHandler(counts));
                    }
                })
                .bind("127.0.0.1", 0).sync().channel();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.close().syncUninterruptibly();
            acceptor.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
            workers.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
        }));
        System.out.println("listening " + ((InetSocketAddress) server.localAddress()).getPort());
        StackConsole.serve(counts::describe, System::currentTimeMillis, LibraryClock::now);
    }
}

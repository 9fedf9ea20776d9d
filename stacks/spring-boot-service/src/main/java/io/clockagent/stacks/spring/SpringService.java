package io.clockagent.stacks.spring;

import io.clockagent.stacks.console.StackConsole;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.web.servlet.context.ServletWebServerApplicationContext;
import org.springframework.clockprobe.LibraryClock;
import org.springframework.scheduling.annotation.EnableScheduling;

/**
 * A Spring Boot web application: {@link GreetingController} behind Tomcat, with its {@link ExpiringCache}, and
 * {@link Heartbeat} on Spring's scheduler. Listens on 127.0.0.1, on a free port it prints as {@code listening PORT},
 * and takes {@link StackConsole}'s commands on stdin; Spring Boot logs to stdout.
 */
@SpringBootApplication
@EnableScheduling
public class SpringService {

    public static void main(String[] args) throws Exception {
        ServletWebServerApplicationContext context =
                (ServletWebServerApplicationContext) SpringApplication.run(SpringService.class, args);
        System.out.println("listening " + context.getWebServer().getPort());
        ServiceCounts counts = context.getBean(ServiceCounts.class);
        StackConsole.serve(counts::describe, System::currentTimeMillis, LibraryClock::now);
    }
}

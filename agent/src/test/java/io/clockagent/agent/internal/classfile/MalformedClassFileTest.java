package io.clockagent.agent.internal.classfile;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The rewriter's contract on bad input, for the rewrite and for the count of sites: each returns a result or throws
 * {@link ClassFileException}, nothing else.
 */
class MalformedClassFileTest {

    private static final int CORRUPTION_TRIALS = 3_000;

    private final byte[] original = RewritingClassLoader.originalBytes(RewritingClassLoader.FIXTURES + "ControlFlow");

    @ParameterizedTest(name = "{0}")
    @EnumSource(Reader.class)
    void everyTruncationIsRefusedWithAReason(Reader rewriter) {
        for (int length = 0; length < original.length; length++) {
            byte[] truncated = Arrays.copyOf(original, length);
            ClassFileException refused = assertThrows(ClassFileException.class, () -> rewriter.rewrite(truncated),
                    "truncated to " + length + " bytes");
            assertFalse(refused.getMessage().isBlank());
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Reader.class)
    void aMethodrefPointingOutsideThePoolIsRefused(Reader rewriter) {
        byte[] broken = original.clone();
        ConstantPool pool = CallSiteRewriter.constantPool(new ClassFileCursor(broken));
        for (int index = 1; index < pool.count(); index++) {
            if (pool.tag(index) == 10) {
                broken[pool.offset(index) + 1] = (byte) 0xff;
                broken[pool.offset(index) + 2] = (byte) 0xff;
            }
        }

        ClassFileException refused = assertThrows(ClassFileException.class, () -> rewriter.rewrite(broken));

        assertTrue(refused.getMessage().contains("constant pool index 65535"), refused.getMessage());
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Reader.class)
    void randomCorruptionNeverEscapesAsAnythingButClassFileException(Reader rewriter) {
        SplittableRandom random = new SplittableRandom(20261121L);
        for (int trial = 0; trial < CORRUPTION_TRIALS; trial++) {
            byte[] corrupted = original.clone();
            int flips = 1 + random.nextInt(3);
            for (int flip = 0; flip < flips; flip++) {
                corrupted[random.nextInt(corrupted.length)] = (byte) random.nextInt(256);
            }
            try {
                rewriter.rewrite(corrupted);
            } catch (ClassFileException expected) {
                // A refusal with a reason is the contract.
            } catch (RuntimeException | Error escaped) {
                fail("trial " + trial + " escaped as " + escaped, escaped);
            }
        }
    }

    /** The two readers of a class file's bytes. */
    private enum Reader {
        REWRITE {
            @Override
            Object rewrite(byte[] classFile) {
                return new CallSiteRewriter(RewritingClassLoader.FIXED_CLOCK, RewritingClassLoader.LIBRARY_CLOCKS)
                        .rewrite(classFile, false);
            }
        },
        COUNT_SITES {
            @Override
            Object rewrite(byte[] classFile) {
                return CallSiteRewriter.countSites(classFile, false, RewritingClassLoader.LIBRARY_CLOCKS);
            }
        };

        abstract Object rewrite(byte[] classFile);
    }
}

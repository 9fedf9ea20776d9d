package io.clockagent.agent.internal.nativefilter;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What a 64-bit little-endian ELF shared object asks of the dynamic loader that loads it, read from its section
 * headers as {@code readelf -d -V --dyn-syms} shows it, with no tool: the libraries it names ({@code DT_NEEDED}), the
 * symbol versions it needs ({@code .gnu.version_r}), its undefined dynamic symbols, each with the version it needs, and
 * the dynamic symbols it defines.
 * Immutable.
 */
final class ElfDependencies {

    private static final int SHT_DYNAMIC = 6;
    private static final int SHT_DYNSYM = 11;
    private static final int SHT_GNU_VERNEED = 0x6ffffffe;
    private static final int SHT_GNU_VERSYM = 0x6fffffff;
    private static final long DT_NULL = 0;
    private static final long DT_NEEDED = 1;
    private static final int SYMBOL_SIZE = 24;
    private static final int VERSION_INDEX_MASK = 0x7fff;

    /** The libraries the object names, in order. */
    final List<String> needed;
    /** Each version it needs, such as {@code GLIBC_2.17}, with the library that must define it. */
    final Map<String, String> versions;
    /** Each undefined dynamic symbol, with the version it needs, or the empty string for none. */
    final Map<String, String> undefinedSymbols;
    /** The dynamic symbols it defines: what it offers the objects loaded after it. */
    final Set<String> definedSymbols;

    private ElfDependencies(List<String> needed, Map<String, String> versions, Map<String, String> undefinedSymbols,
            Set<String> definedSymbols) {
        this.needed = Collections.unmodifiableList(needed);
        this.versions = Collections.unmodifiableMap(versions);
        this.undefinedSymbols = Collections.unmodifiableMap(undefinedSymbols);
        this.definedSymbols = Collections.unmodifiableSet(definedSymbols);
    }

    static ElfDependencies read(byte[] bytes) {
        ByteBuffer elf = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        if (elf.getInt(0) != 0x464c457f || elf.get(4) != 2 || elf.get(5) != 1) {
            throw new IllegalArgumentException("not a 64-bit little-endian ELF object");
        }
        long sectionTable = elf.getLong(0x28);
        int sectionSize = Short.toUnsignedInt(elf.getShort(0x3a));
        int sections = Short.toUnsignedInt(elf.getShort(0x3c));
        Section dynamic = null;
        Section dynsym = null;
        Section verneed = null;
        Section versym = null;
        List<Section> all = new ArrayList<>();
        for (int i = 0; i < sections; i++) {
            Section section = new Section(elf, (int) (sectionTable + (long) i * sectionSize));
            all.add(section);
            switch (section.type) {
                case SHT_DYNAMIC -> dynamic = section;
                case SHT_DYNSYM -> dynsym = section;
                case SHT_GNU_VERNEED -> verneed = section;
                case SHT_GNU_VERSYM -> versym = section;
                default -> { }
            }
        }
        if (dynamic == null || dynsym == null) {
            throw new IllegalArgumentException("no dynamic section or dynamic symbols: not a shared object");
        }

        List<String> needed = new ArrayList<>();
        Section dynamicStrings = all.get(dynamic.link);
        for (int entry = (int) dynamic.offset; entry < dynamic.offset + dynamic.size; entry += 16) {
            long tag = elf.getLong(entry);
            if (tag == DT_NULL) {
                break;
            }
            if (tag == DT_NEEDED) {
                needed.add(string(elf, dynamicStrings, elf.getLong(entry + 8)));
            }
        }

        Map<String, String> versions = new LinkedHashMap<>();
        Map<Integer, String> versionByIndex = new LinkedHashMap<>();
        if (verneed != null) {
            Section strings = all.get(verneed.link);
            int file = (int) verneed.offset;
            for (int f = 0; f < verneed.info; f++) {
                String library = string(elf, strings, Integer.toUnsignedLong(elf.getInt(file + 4)));
                int auxiliary = file + elf.getInt(file + 8);
                for (int a = 0; a < Short.toUnsignedInt(elf.getShort(file + 2)); a++) {
                    String version = string(elf, strings, Integer.toUnsignedLong(elf.getInt(auxiliary + 8)));
                    versions.put(version, library);
                    versionByIndex.put(Short.toUnsignedInt(elf.getShort(auxiliary + 6)) & VERSION_INDEX_MASK,
                            version);
                    auxiliary += elf.getInt(auxiliary + 12);
                }
                file += elf.getInt(file + 12);
            }
        }

        Map<String, String> undefined = new LinkedHashMap<>();
        Set<String> defined = new LinkedHashSet<>();
        Section symbolStrings = all.get(dynsym.link);
        for (int i = 1; i < dynsym.size / SYMBOL_SIZE; i++) {
            int symbol = (int) dynsym.offset + i * SYMBOL_SIZE;
            String name = string(elf, symbolStrings, Integer.toUnsignedLong(elf.getInt(symbol)));
            if (elf.getShort(symbol + 6) != 0) {
                defined.add(name);
                continue;
            }
            int index = versym == null ? 0
                    : Short.toUnsignedInt(elf.getShort((int) versym.offset + i * 2)) & VERSION_INDEX_MASK;
            undefined.put(name, versionByIndex.getOrDefault(index, ""));
        }
        return new ElfDependencies(needed, versions, undefined, defined);
    }

    private static String string(ByteBuffer elf, Section table, long offset) {
        int start = (int) (table.offset + offset);
        int end = start;
        while (elf.get(end) != 0) {
            end++;
        }
        return new String(elf.array(), start, end - start, StandardCharsets.US_ASCII);
    }

    /** One entry of the section header table: the fields this reader needs. */
    private static final class Section {
        final int type;
        final long offset;
        final long size;
        final int link;
        final int info;

        Section(ByteBuffer elf, int header) {
            type = elf.getInt(header + 4);
            offset = elf.getLong(header + 0x18);
            size = elf.getLong(header + 0x20);
            link = elf.getInt(header + 0x28);
            info = elf.getInt(header + 0x2c);
        }
    }
}

package io.clockagent.bench;

/** One thread's wall-clock reads as the counter library wrote them: its kernel id, its name and its count. */
record ThreadReads(int tid, String name, long reads) {

    ThreadKind kind() {
        return ThreadKind.of(name);
    }

    /** A line of a snapshot: {@code TID<TAB>READS<TAB>NAME}. */
    static ThreadReads parse(String line) {
        String[] fields = line.split("\t", 3);
        return new ThreadReads(Integer.parseInt(fields[0]), fields.length > 2 ? fields[2] : "", Long.parseLong(
                fields[1]));
    }
}

package io.clockagent.it.support;

import java.util.HashMap;
import java.util.Map;

/** A fixture's answer of MBean attributes, {@code WORD Name=VALUE ...}, as numbers: booleans as 1 and 0. Stateless. */
public final class AttributeLine {

    private AttributeLine() {
    }

    /** Asks a live service {@code word} and reads the attributes of its answer, which starts with that word. */
    public static Map<String, Double> ask(LiveJvm service, String word) {
        Map<String, Double> values = new HashMap<>();
        String line = service.ask(word, word);
        for (String pair : line.substring(word.length() + 1).split(" ")) {
            String[] nameAndValue = pair.split("=", 2);
            values.put(nameAndValue[0], nameAndValue[1].equals("true") ? 1.0 : nameAndValue[1].equals("false") ? 0.0
                    : Double.parseDouble(nameAndValue[1]));
        }
        return values;
    }
}

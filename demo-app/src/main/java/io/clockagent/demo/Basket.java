package io.clockagent.demo;

/**
 * The line items of one quote request, parsed from {@code items=SKUxQTY,SKUxQTY,...}; immutable.
 */
final class Basket {

    static final int MAX_ITEMS = 100;
    static final int MAX_SKU = 1_000_000;
    static final int MAX_QUANTITY = 1_000;

    private final int[] skus;
    private final int[] quantities;

    private Basket(int[] skus, int[] quantities) {
        this.skus = skus;
        this.quantities = quantities;
    }

    /**
     * Parses the raw query string of a request, which must be exactly {@code items=...}.
     *
     * @throws IllegalArgumentException saying what is wrong, for a 400 response
     */
    static Basket parseQuery(String rawQuery) {
        String prefix = "items=";
        if (rawQuery == null || !rawQuery.startsWith(prefix) || rawQuery.length() == prefix.length()) {
            throw new IllegalArgumentException("expected ?items=SKUxQTY,SKUxQTY,...");
        }
        String[] tokens = rawQuery.substring(prefix.length()).split(",", -1);
        if (tokens.length > MAX_ITEMS) {
            throw new IllegalArgumentException("at most " + MAX_ITEMS + " items, got " + tokens.length);
        }
        int[] skus = new int[tokens.length];
        int[] quantities = new int[tokens.length];
        for (int i = 0; i < tokens.length; i++) {
            String token = tokens[i];
            int times = token.indexOf('x');
            if (times <= 0) {
                throw new IllegalArgumentException("item '" + token + "' is not SKUxQTY");
            }
            skus[i] = parseBounded(token, token.substring(0, times), MAX_SKU);
            quantities[i] = parseBounded(token, token.substring(times + 1), MAX_QUANTITY);
            if (quantities[i] == 0) {
                throw new IllegalArgumentException("item '" + token + "' has quantity 0");
            }
        }
        return new Basket(skus, quantities);
    }

    private static int parseBounded(String token, String digits, int max) {
        if (digits.isEmpty() || digits.length() > 7) {
            throw new IllegalArgumentException("item '" + token + "' is not SKUxQTY with SKU <= " + MAX_SKU
                    + " and QTY <= " + MAX_QUANTITY);
        }
        int value = 0;
        for (int i = 0; i < digits.length(); i++) {
            char c = digits.charAt(i);
            if (c < '0' || c > '9') {
                throw new IllegalArgumentException("item '" + token + "' is not SKUxQTY");
            }
            value = value * 10 + (c - '0');
        }
        if (value > max) {
            throw new IllegalArgumentException("item '" + token + "' is not SKUxQTY with SKU <= " + MAX_SKU
                    + " and QTY <= " + MAX_QUANTITY);
        }
        return value;
    }

    int size() {
        return skus.length;
    }

    int sku(int index) {
        return skus[index];
    }

    int quantity(int index) {
        return quantities[index];
    }
}

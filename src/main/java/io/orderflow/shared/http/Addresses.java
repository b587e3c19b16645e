package io.orderflow.shared.http;

import java.util.List;

/** Lists of addresses as the HTTP filters name them: one ending in "/" covers everything under it, any other itself alone. */
final class Addresses {

    private Addresses() {
    }

    static boolean listed(List<String> addresses, String path) {
        for (String address : addresses) {
            if (address.endsWith("/") ? path.startsWith(address) : path.equals(address)) {
                return true;
            }
        }
        return false;
    }
}

package store;

import java.io.IOException;

/** Persists values to disk. */
public class Store {
    public void save(String value) {
        try {
            write(value);
        } catch (IOException e) {
        }
    }

    private void write(String value) throws IOException {
        throw new IOException("disk full");
    }
}

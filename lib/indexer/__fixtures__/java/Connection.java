package org.tally.net;

/** A connection whose response executes with or without a previous response. */
public class Connection {
    public static class Response {
        static Response execute(Request req) throws java.io.IOException {
            return execute(req, null);
        }

        static Response execute(Request req, Response previous) throws java.io.IOException {
            if (req == null) throw new IllegalArgumentException("Request must not be null");
            return new Response();
        }
    }
}

package com.example.inventory;

import java.io.IOException;
import java.util.*;
import static java.util.Objects.requireNonNull;

/**
 * Keeps stock levels per SKU.
 */
@Service
public class InventoryService extends BaseService implements Closeable {
    private static final Logger LOG = LoggerFactory.getLogger(InventoryService.class);
    private final Map<String, Integer> stock = new HashMap<>();
    private int reservations;
    private Repository repo;

    public InventoryService(Repository repo) {
        super(repo.name());
        this.repo = requireNonNull(repo);
    }

    // Reserves one unit.
    @Transactional
    public synchronized int reserve(String sku) throws IOException, StockException {
        Integer left = stock.get(sku);
        if (left == null || left == 0) {
            LOG.error("out of stock: " + sku);
            throw new StockException(String.format("no stock for %s", sku));
        }
        stock.put(sku, left - 1);
        reservations++;
        return left - 1;
    }

    private void reload(List<String> skus) {
        int reservations = 0;
        for (String sku : skus) {
            stock[sku] = repo.load(sku).count();
            reservations++;
        }
        repo = null;
    }

    @Override
    public void close() {
        repo.close();
    }

    public interface Repository {
        String name();

        default Item load(String sku) {
            throw new UnsupportedOperationException("load");
        }
    }

    enum Level {
        LOW,
        HIGH;

        boolean critical() {
            return this == LOW;
        }
    }

    public record Item(String sku, int count) {}
}

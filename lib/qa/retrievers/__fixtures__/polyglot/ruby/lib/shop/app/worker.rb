require "shop/core/store"

module Shop
  # Background jobs that import records in bulk.
  class Worker
    # Saves every record of a batch.
    def run_batch(records)
      store = Store.new
      records.each { |record| store.save(record) }
      records.size
    end
  end
end

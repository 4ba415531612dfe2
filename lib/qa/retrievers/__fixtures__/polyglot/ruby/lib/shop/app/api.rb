require "shop/core/store"
require "shop/core/util"

module Shop
  # HTTP handlers of the shop.
  class Api
    def initialize(store = Store.new)
      @store = store
    end

    # Creates the record a request describes.
    def handle_create(request)
      @store.save(request.record)
    end

    # Returns the record a request names.
    def handle_lookup(request)
      @store.load(Util.format_key(request.name))
    end
  end
end

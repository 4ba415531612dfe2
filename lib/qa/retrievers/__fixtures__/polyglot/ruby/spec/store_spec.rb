require "shop/core/store"
require "shop/core/util"
require "shop/app/api"

RSpec.describe Shop::Store do
  it "normalizes keys" do
    record = Struct.new(:name).new(" A ")
    expect(Shop::Store.new.save(record)).to eq(Shop::Util.format_key("a"))
    Shop::Api.new.handle_create(Struct.new(:record).new(record))
  end
end

module Parcel
  # A parcel on its way.
  class Shipment
    def initialize(address, weight)
      @grams = WeightUnit.grams(weight)
      @label = ShippingLabel.new(address, @grams)
    end

    def label_text
      @label.text
    end
  end
end

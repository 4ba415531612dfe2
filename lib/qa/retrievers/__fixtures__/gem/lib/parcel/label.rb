module Parcel
  # The printed label of a parcel.
  class ShippingLabel
    def initialize(address, grams)
      @address = address
      @kilos = WeightUnit.kilos(grams)
    end

    def text
      "#{@address} (#{@kilos} kg)"
    end
  end
end

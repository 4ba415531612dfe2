require "parcel/weight"
require "parcel/label"
require "parcel/shipment"

# Parcel: shipping labels for weighed parcels.
module Parcel
  VERSION = "1.0.0"
end

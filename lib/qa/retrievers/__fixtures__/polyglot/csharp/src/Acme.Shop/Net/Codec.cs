using System.Text;

namespace Acme.Shop.Net
{
    /// <summary>Encoding of records on the wire.</summary>
    public static class Codec
    {
        /// <summary>Decodes a wire payload into a record.</summary>
        public static string Decode(byte[] data)
        {
            return Encoding.UTF8.GetString(data);
        }

        /// <summary>Encodes a record and sends it.</summary>
        public static int EncodeAndSend(string record)
        {
            return Client.Send(Encoding.UTF8.GetBytes(record));
        }
    }
}

using System.Text;
using Acme.Shop.Core;

namespace Acme.Shop.Net
{
    /// <summary>The network client: fetches remote records.</summary>
    public class Client
    {
        /// <summary>Fetches one remote record by name.</summary>
        public string Fetch(string name)
        {
            return Codec.Decode(Encoding.UTF8.GetBytes(Keys.FormatKey(name)));
        }

        /// <summary>Sends an encoded payload.</summary>
        public static int Send(byte[] payload)
        {
            return payload.Length;
        }
    }
}

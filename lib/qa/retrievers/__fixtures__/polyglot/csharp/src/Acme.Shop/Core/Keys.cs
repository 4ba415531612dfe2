namespace Acme.Shop.Core
{
    /// <summary>Small helpers shared by the store, the API and the network client.</summary>
    public static class Keys
    {
        /// <summary>Normalizes a record name into the key it is stored under.</summary>
        public static string FormatKey(string name)
        {
            return name.Trim().ToLowerInvariant();
        }
    }
}

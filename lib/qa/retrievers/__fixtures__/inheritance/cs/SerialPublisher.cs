namespace Acme.Notify;

public class SerialPublisher : IPublisher
{
    public void Publish(string message)
    {
        System.Console.WriteLine(message);
    }
}

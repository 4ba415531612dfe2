namespace Acme.Notify;

public interface IPublisher
{
    void Publish(string message);
}

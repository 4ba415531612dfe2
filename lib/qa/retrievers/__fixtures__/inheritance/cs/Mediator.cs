namespace Acme.Notify;

public class Mediator
{
    private readonly IPublisher _publisher;

    public Mediator(IPublisher publisher)
    {
        _publisher = publisher;
    }

    public void Send(string message)
    {
        _publisher.Publish(message);
    }
}

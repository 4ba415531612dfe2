namespace Acme.Notify;

public class ParallelPublisher : IPublisher
{
    public void Publish(string message)
    {
        System.Threading.Tasks.Task.Run(() => System.Console.WriteLine(message));
    }
}

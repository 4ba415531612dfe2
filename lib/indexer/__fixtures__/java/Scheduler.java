package app;

public class Scheduler {
  /** Orders jobs by priority, then by age. */
  private final Comparator<Job> byPriority = (a, b) -> Integer.compare(b.priority(), a.priority());

  private final Runnable tick = new Runnable() {
    @Override public void run() {
      drain();
    }
  };

  public void start() {
    executor.submit(new Runnable() { public void run() { poll(); } });
  }
}

import java.util.List;

public class Broken {
    public void good() { helper(); }

    public void broken( { int x = ; }

    public void survivor() { this.count = compute(); }
}

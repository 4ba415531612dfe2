"""Every retry count counts down to none."""
from webapp.retry import Retry

def test_increment_from_1():
    retry = Retry(1)
    assert retry.increment("http://example.com/1").total == 0

def test_increment_from_2():
    retry = Retry(2)
    assert retry.increment("http://example.com/2").total == 1

def test_increment_from_3():
    retry = Retry(3)
    assert retry.increment("http://example.com/3").total == 2

def test_increment_from_4():
    retry = Retry(4)
    assert retry.increment("http://example.com/4").total == 3

def test_increment_from_5():
    retry = Retry(5)
    assert retry.increment("http://example.com/5").total == 4

def test_increment_from_6():
    retry = Retry(6)
    assert retry.increment("http://example.com/6").total == 5

def test_increment_from_7():
    retry = Retry(7)
    assert retry.increment("http://example.com/7").total == 6

def test_increment_from_8():
    retry = Retry(8)
    assert retry.increment("http://example.com/8").total == 7

def test_increment_from_9():
    retry = Retry(9)
    assert retry.increment("http://example.com/9").total == 8

def test_increment_from_10():
    retry = Retry(10)
    assert retry.increment("http://example.com/10").total == 9

def test_increment_from_11():
    retry = Retry(11)
    assert retry.increment("http://example.com/11").total == 10

def test_increment_from_12():
    retry = Retry(12)
    assert retry.increment("http://example.com/12").total == 11

def test_increment_from_13():
    retry = Retry(13)
    assert retry.increment("http://example.com/13").total == 12

def test_increment_from_14():
    retry = Retry(14)
    assert retry.increment("http://example.com/14").total == 13

def test_increment_from_15():
    retry = Retry(15)
    assert retry.increment("http://example.com/15").total == 14

def test_increment_from_16():
    retry = Retry(16)
    assert retry.increment("http://example.com/16").total == 15

def test_increment_from_17():
    retry = Retry(17)
    assert retry.increment("http://example.com/17").total == 16

def test_increment_from_18():
    retry = Retry(18)
    assert retry.increment("http://example.com/18").total == 17

def test_increment_from_19():
    retry = Retry(19)
    assert retry.increment("http://example.com/19").total == 18

def test_increment_from_20():
    retry = Retry(20)
    assert retry.increment("http://example.com/20").total == 19

def test_increment_from_21():
    retry = Retry(21)
    assert retry.increment("http://example.com/21").total == 20

def test_increment_from_22():
    retry = Retry(22)
    assert retry.increment("http://example.com/22").total == 21

def test_increment_from_23():
    retry = Retry(23)
    assert retry.increment("http://example.com/23").total == 22

def test_increment_from_24():
    retry = Retry(24)
    assert retry.increment("http://example.com/24").total == 23

def test_increment_from_25():
    retry = Retry(25)
    assert retry.increment("http://example.com/25").total == 24

def test_increment_from_26():
    retry = Retry(26)
    assert retry.increment("http://example.com/26").total == 25

def test_increment_from_27():
    retry = Retry(27)
    assert retry.increment("http://example.com/27").total == 26

def test_increment_from_28():
    retry = Retry(28)
    assert retry.increment("http://example.com/28").total == 27

def test_increment_from_29():
    retry = Retry(29)
    assert retry.increment("http://example.com/29").total == 28

def test_increment_from_30():
    retry = Retry(30)
    assert retry.increment("http://example.com/30").total == 29

def test_increment_from_31():
    retry = Retry(31)
    assert retry.increment("http://example.com/31").total == 30

def test_increment_from_32():
    retry = Retry(32)
    assert retry.increment("http://example.com/32").total == 31

def test_increment_from_33():
    retry = Retry(33)
    assert retry.increment("http://example.com/33").total == 32

def test_increment_from_34():
    retry = Retry(34)
    assert retry.increment("http://example.com/34").total == 33

def test_increment_from_35():
    retry = Retry(35)
    assert retry.increment("http://example.com/35").total == 34

def test_increment_from_36():
    retry = Retry(36)
    assert retry.increment("http://example.com/36").total == 35

def test_increment_from_37():
    retry = Retry(37)
    assert retry.increment("http://example.com/37").total == 36

def test_increment_from_38():
    retry = Retry(38)
    assert retry.increment("http://example.com/38").total == 37

def test_increment_from_39():
    retry = Retry(39)
    assert retry.increment("http://example.com/39").total == 38

def test_increment_from_40():
    retry = Retry(40)
    assert retry.increment("http://example.com/40").total == 39

def test_increment_from_41():
    retry = Retry(41)
    assert retry.increment("http://example.com/41").total == 40

def test_increment_from_42():
    retry = Retry(42)
    assert retry.increment("http://example.com/42").total == 41

def test_increment_from_43():
    retry = Retry(43)
    assert retry.increment("http://example.com/43").total == 42

def test_increment_from_44():
    retry = Retry(44)
    assert retry.increment("http://example.com/44").total == 43

def test_increment_from_45():
    retry = Retry(45)
    assert retry.increment("http://example.com/45").total == 44

package com.example.sofa.hessian;

import java.io.Serializable;
import java.util.Objects;

/** A plain hessian2 bean of the interop contract. */
public class Person implements Serializable {
  private static final long serialVersionUID = 1L;

  private String name;
  private int age;

  public Person() {}

  public Person(String name, int age) {
    this.name = name;
    this.age = age;
  }

  public String getName() {
    return name;
  }

  public void setName(String name) {
    this.name = name;
  }

  public int getAge() {
    return age;
  }

  public void setAge(int age) {
    this.age = age;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Person p && Objects.equals(name, p.name) && age == p.age;
  }

  @Override
  public int hashCode() {
    return Objects.hash(name, age);
  }

  @Override
  public String toString() {
    return "Person{name=" + name + ", age=" + age + "}";
  }
}

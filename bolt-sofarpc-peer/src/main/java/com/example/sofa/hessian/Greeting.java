package com.example.sofa.hessian;

import java.io.Serializable;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/** A plain hessian2 bean of the interop contract: every kind of field a boltgen peer must carry. */
public class Greeting implements Serializable {
  private static final long serialVersionUID = 1L;

  private String name;
  private int times;
  private long stamp;
  private double score;
  private boolean formal;
  private List<String> tags;
  private Map<String, Integer> counts;
  private Person from;
  private byte[] blob;

  public Greeting() {}

  public String getName() {
    return name;
  }

  public void setName(String name) {
    this.name = name;
  }

  public int getTimes() {
    return times;
  }

  public void setTimes(int times) {
    this.times = times;
  }

  public long getStamp() {
    return stamp;
  }

  public void setStamp(long stamp) {
    this.stamp = stamp;
  }

  public double getScore() {
    return score;
  }

  public void setScore(double score) {
    this.score = score;
  }

  public boolean isFormal() {
    return formal;
  }

  public void setFormal(boolean formal) {
    this.formal = formal;
  }

  public List<String> getTags() {
    return tags;
  }

  public void setTags(List<String> tags) {
    this.tags = tags;
  }

  public Map<String, Integer> getCounts() {
    return counts;
  }

  public void setCounts(Map<String, Integer> counts) {
    this.counts = counts;
  }

  public Person getFrom() {
    return from;
  }

  public void setFrom(Person from) {
    this.from = from;
  }

  public byte[] getBlob() {
    return blob;
  }

  public void setBlob(byte[] blob) {
    this.blob = blob;
  }

  @Override
  public String toString() {
    return "Greeting{name=" + name + ", times=" + times + ", stamp=" + stamp + ", score=" + score + ", formal=" + formal
        + ", tags=" + tags + ", counts=" + counts + ", from=" + from + ", blob=" + (blob == null ? "null" : Arrays.toString(blob))
        + "}";
  }
}

package io.fencelab.engine.event;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks an event's component that a line may leave out (it is null in the record). Every other
 * component is required: the log reader derives what each event type needs from its components and
 * this mark, so a new event type or field needs no list of required fields kept by hand.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.RECORD_COMPONENT)
public @interface MayBeAbsent {
}
